pub mod deps;
pub mod significance;
