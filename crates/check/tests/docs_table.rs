//! docs/static-checks.md shows the wait-state rules exactly as the table in
//! `hazard.rs` has them.

#[test]
fn the_docs_hold_the_rule_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/static-checks.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let table = risa_check::hazard::rules_markdown();
    if std::env::var_os("RISA_BLESS").is_some() {
        let start = doc.find("| rule |").unwrap();
        let end = start + doc[start..].find("\n\n").unwrap() + 1;
        let new = format!("{}{table}{}", &doc[..start], &doc[end..]);
        std::fs::write(&path, new).unwrap();
        return;
    }
    assert!(
        doc.contains(&table),
        "docs/static-checks.md is out of date: RISA_BLESS=1 cargo test -p risa-check --test docs_table\n{table}"
    );
}
