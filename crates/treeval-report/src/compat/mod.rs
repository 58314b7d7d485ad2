//! The reference tools' own outputs, byte for byte: one module per tool. Each formats
//! counts as the tool does (including its float arithmetic where that shows in the
//! printed digits); where the tool computes something else than treeval, the caller
//! warns.

pub mod aer_py;
pub mod alpino;
pub mod conll;
pub mod evalb;
pub mod wa_eval;
