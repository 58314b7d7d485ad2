pub mod deps;
