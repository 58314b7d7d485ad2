pub mod align;
pub mod deps;
pub mod significance;
