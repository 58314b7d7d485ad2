//! The malformed alignment corpus (testdata/malformed-align): every file's exact
//! messages (errors, or the warnings of a file read with a BOM or CR LF), pinned by
//! snapshots.

use std::path::Path;

use treeval_formats::align::{read_alignments, AlignOptions};

#[test]
fn malformed_alignment_messages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/malformed-align");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 9);
    for f in files {
        let name = format!(
            "malformed-align/{}",
            f.file_name().unwrap().to_string_lossy()
        );
        let bytes = std::fs::read(&f).unwrap();
        let out = match read_alignments(&name, bytes.as_slice(), AlignOptions::default()) {
            Ok(a) => {
                let mut o = format!(
                    "read {} sentence(s) as {} without error, {} warning(s)\n",
                    a.sentences.len(),
                    a.format.name(),
                    a.warnings.warning_count()
                );
                for w in a.warnings.iter() {
                    o.push_str(&format!("warning: {w}\n"));
                }
                o
            }
            Err(e) => format!("{e}\n"),
        };
        assert!(out.contains("expected"), "{name} gave no error:\n{out}");
        insta::assert_snapshot!(f.file_stem().unwrap().to_string_lossy().into_owned(), out);
    }
}
