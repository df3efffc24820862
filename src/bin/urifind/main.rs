//! The urifind command (skeleton).
fn main() {
    eprintln!("urifind: not yet");
    std::process::exit(2);
}
