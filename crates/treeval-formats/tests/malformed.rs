//! The malformed-input corpus (testdata/malformed): every file's exact diagnostics are
//! pinned by a snapshot, so a change of wording or position is a reviewed change.

use std::path::Path;

use treeval_formats::{ReaderBuilder, Sentence};

fn diagnostics_of(path: &Path) -> String {
    let name = format!("malformed/{}", path.file_name().unwrap().to_string_lossy());
    let bytes = std::fs::read(path).unwrap();
    let mut rdr = ReaderBuilder::new().from_reader(&name, bytes.as_slice());
    let mut s = Sentence::new();
    let mut out = String::new();
    let mut sentences = 0;
    loop {
        match rdr.read_sentence(&mut s) {
            Ok(true) => sentences += 1,
            Ok(false) => break,
            Err(e) => {
                out.push_str(&format!("fatal:\n{e}\n"));
                break;
            }
        }
    }
    let d = rdr.diagnostics();
    out.push_str(&format!(
        "sentences read: {sentences}; errors: {}; warnings: {}\n",
        d.error_count(),
        d.warning_count()
    ));
    for x in d.iter() {
        out.push_str(&format!("{:?}: {x}\n", x.severity));
    }
    out
}

#[test]
fn malformed_corpus_messages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/malformed");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the corpus must have at least 20 cases");
    for f in files {
        let out = diagnostics_of(&f);
        assert!(
            out.contains("Error:") || out.contains("Warning:") || out.contains("fatal:"),
            "{} produced no diagnostic:\n{out}",
            f.display()
        );
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(name, out);
    }
}
