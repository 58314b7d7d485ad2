//! `# sent_id`s that disagree between files whose sentences are paired without them: pts
//! pairs each side's sentences by position (examples/pts), and warns as deps does (the
//! other commands are tested on EWT dev in shared_data.rs).

mod common;
use common::treeval;

#[test]
fn pts_warns_when_a_sides_sent_ids_disagree() {
    let dir = std::env::temp_dir().join(format!("treeval-sent-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let en = std::fs::read_to_string(common::root().join("examples/pts/parser.en.conllu")).unwrap();
    let renamed = dir.join("parser.en.conllu");
    std::fs::write(&renamed, en.replace("# sent_id = 2\n", "# sent_id = two\n")).unwrap();
    let renamed = renamed.to_str().unwrap();
    let args = |sys_a: &str| {
        vec![
            "pts".to_owned(),
            "--format".into(),
            "json".into(),
            "--gold-a".into(),
            "examples/pts/gold.en.conllu".into(),
            "--gold-b".into(),
            "examples/pts/gold.de.conllu".into(),
            "--gold-align".into(),
            "examples/pts/gold.en-de.naacl".into(),
            "--sys-a".into(),
            sys_a.into(),
            "--sys-b".into(),
            "examples/pts/parser.de.conllu".into(),
            "--sys-align".into(),
            "examples/pts/aligner.en-de.pharaoh".into(),
        ]
    };
    let run = |sys_a: &str| {
        let a = args(sys_a);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = treeval(&a);
        assert!(o.status.success(), "{}", common::stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
        (v, common::stderr(&o))
    };
    let (v, err) = run(renamed);
    let want = "1 of 3 paired sentences with ids have a `# sent_id` other than their gold sentence's; the first: gold '2' (examples/pts/gold.en.conllu:";
    assert!(err.contains(want), "{err}");
    assert!(err.contains("and system 'two'"), "{err}");
    assert_eq!(err.matches("`# sent_id`").count(), 1, "{err}");
    let ws = v["warnings"].as_array().unwrap();
    assert!(
        ws.iter()
            .any(|w| w["message"].as_str().unwrap().contains(want)),
        "{ws:?}"
    );
    // the scores are those of the unchanged file; it gives no such warning
    let (same, err) = run("examples/pts/parser.en.conllu");
    assert_eq!(err.matches("`# sent_id`").count(), 0, "{err}");
    assert_eq!(v["sections"], same["sections"]);
    let _ = std::fs::remove_dir_all(&dir);
}
