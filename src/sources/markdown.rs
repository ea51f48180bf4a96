//! (placeholder)

pub fn extract_markdown(_text: &str) -> Vec<super::Snippet> {
    Vec::new()
}

pub fn extract_rst(_text: &str) -> Vec<super::Snippet> {
    Vec::new()
}
