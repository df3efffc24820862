//! Help, man page and shell completions.

use super::*;

#[test]
fn help_version_and_generate() {
    let o = run(&["--help"], b"");
    assert_eq!(o.code, 0);
    assert!(o.text().contains("Examples:"));
    assert!(o.text().contains("--check"));
    let o = run(&["--version"], b"");
    assert!(o.text().starts_with("urifind "));
    let o = run(&["--generate", "man"], b"");
    assert!(o.text().contains(".TH urifind"));
    assert_eq!(o.code, 0);
    let o = run(&["--generate", "complete-bash"], b"");
    assert!(o.text().contains("_urifind"));
    let o = run(&["--generate", "complete-zsh"], b"");
    assert!(o.text().contains("#compdef urifind"));
    let o = run(&["--generate", "complete-fish"], b"");
    assert!(o.text().contains("complete -c urifind"));
}
