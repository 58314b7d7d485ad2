//! What every test file of the library shares: the repository's fixtures by path, and a
//! cell's counts by measure name.
#![allow(dead_code)] // each test binary uses its part

/// A path under the repository's root.
pub fn repo(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// A file under testdata/.
pub fn testdata(path: &str) -> String {
    repo(&format!("testdata/{path}"))
}

/// A file under examples/.
pub fn example(name: &str) -> String {
    repo(&format!("examples/{name}"))
}

/// The bytes of a file under testdata/.
pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(testdata(path)).unwrap()
}

/// The counts of `measure`'s cell of `system` (0-based).
pub fn counts(ev: &treeval::Evaluation, measure: &str, system: usize) -> Vec<f64> {
    ev.report
        .cell(measure, system)
        .expect(measure)
        .counts
        .clone()
}

/// A writer whose bytes the test reads back (a per-sentence sink's records).
#[derive(Clone, Default)]
pub struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Shared {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl std::io::Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
