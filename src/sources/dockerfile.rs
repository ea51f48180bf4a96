//! (placeholder)

pub fn extract(_text: &str) -> Vec<super::Snippet> {
    Vec::new()
}
