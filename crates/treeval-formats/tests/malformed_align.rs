//! The malformed alignment corpus (testdata/malformed-align): every file's exact
//! messages, pinned by snapshots.

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
            Ok(a) => format!(
                "read {} sentence(s) as {} without error\n",
                a.sentences.len(),
                a.format.name()
            ),
            Err(e) => format!("{e}\n"),
        };
        assert!(out.contains("expected"), "{name} gave no error:\n{out}");
        insta::assert_snapshot!(f.file_stem().unwrap().to_string_lossy().into_owned(), out);
    }
}
