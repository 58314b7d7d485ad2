pub mod align;
pub mod deps;
pub mod pts;
pub mod relations;
pub mod significance;
pub mod ud;
