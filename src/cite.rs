//! Sources as links: a source text split into plain runs and the references in it that have
//! an address (`arXiv:2407.21783` becomes a link to the paper's abstract page).
//!
//! The page renders the links as ordinary anchors the user may follow; the app itself never
//! loads them. Std only.

/// A run of a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Plain text.
    Text(&'a str),
    /// A reference with its address.
    Link {
        /// The reference as written (`arXiv:2407.21783`).
        text: &'a str,
        /// Its identifier (`2407.21783`), which `href` turns into an address.
        id: &'a str,
    },
}

impl Segment<'_> {
    /// The address of a link segment.
    pub fn href(&self) -> Option<String> {
        match self {
            Segment::Link { id, .. } => Some(format!("https://arxiv.org/abs/{id}")),
            Segment::Text(_) => None,
        }
    }
}

/// Splits `text` into plain runs and arXiv references.
pub fn segments(text: &str) -> Vec<Segment<'_>> {
    const TAG: &str = "arXiv:";
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(TAG) {
        let after = &rest[start + TAG.len()..];
        let len = after.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(after.len());
        let id = after[..len].trim_end_matches('.');
        if id.len() < 9 || !id.contains('.') {
            // Not an identifier: keep the tag as text and look further on.
            out.push(Segment::Text(&rest[..start + TAG.len()]));
            rest = after;
            continue;
        }
        if start > 0 {
            out.push(Segment::Text(&rest[..start]));
        }
        out.push(Segment::Link { text: &rest[start..start + TAG.len() + id.len()], id });
        rest = &after[id.len()..];
    }
    if !rest.is_empty() {
        out.push(Segment::Text(rest));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arxiv_references_become_links_and_the_text_is_kept() {
        let text = "Llama Team 2024, arXiv:2407.21783, Table 3. See arXiv: none.";
        let parts = segments(text);
        assert_eq!(parts[1], Segment::Link { text: "arXiv:2407.21783", id: "2407.21783" });
        assert_eq!(parts[1].href().as_deref(), Some("https://arxiv.org/abs/2407.21783"));
        let joined: String = parts
            .iter()
            .map(|s| match s {
                Segment::Text(t) | Segment::Link { text: t, .. } => *t,
            })
            .collect();
        assert_eq!(joined, text);
        assert_eq!(parts.iter().filter(|s| s.href().is_some()).count(), 1);
    }
}
