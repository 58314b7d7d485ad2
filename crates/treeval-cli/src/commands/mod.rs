pub mod align;
pub mod brackets;
pub mod deps;
pub mod pts;
pub mod relations;
pub mod significance;
pub mod ted;
pub mod ud;
