pub mod align;
pub mod deps;
pub mod pts;
pub mod significance;
pub mod ud;
