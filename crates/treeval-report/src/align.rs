//! Alignment counts as the `pts` JSON contract names them (`align` itself reports through
//! [`crate::value::Report`]).

use serde::Serialize;

/// Counts as the JSON contract names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(non_snake_case)]
pub struct AlignCountsOut {
    /// |A|.
    pub A: u64,
    /// |S|.
    pub S: u64,
    /// |P|.
    pub P: u64,
    /// |A ∩ S|.
    pub A_and_S: u64,
    /// |A ∩ P|.
    pub A_and_P: u64,
}
