//! Typed keys for `ServerArgs` fields, generated from every carried release's schema (and the
//! few attributes hooks set without a flag) by `build.rs`: a misspelt field does not compile.
//! Rules read `cfg.int(f::dp_size)` as SGLang reads `server_args.dp_size`.

/// A `ServerArgs` field of some SGLang release (the index of its name in [`FIELD_NAMES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Field(u16);

#[allow(clippy::indexing_slicing)]
mod generated {
    use super::Field;
    include!(concat!(env!("OUT_DIR"), "/fields.rs"));
}
pub use generated::{f, FIELD_NAMES};

impl Field {
    /// How many fields there are (over all carried releases).
    pub const COUNT: usize = FIELD_NAMES.len();

    /// SGLang's name of the field (`dp_size`).
    pub fn name(self) -> &'static str {
        FIELD_NAMES.get(self.index()).copied().unwrap_or("")
    }

    /// Every field, in index order.
    pub fn all() -> impl Iterator<Item = Field> {
        (0..Field::COUNT).filter_map(|i| u16::try_from(i).ok().map(Field))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The field of that name, if any release has it.
    pub fn from_name(name: &str) -> Option<Field> {
        let i = FIELD_NAMES.binary_search(&name).ok()?;
        u16::try_from(i).ok().map(Field)
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(f::dp_size.name(), "dp_size");
        assert_eq!(Field::from_name("tp_size"), Some(f::tp_size));
        assert_eq!(Field::from_name("no_such_field"), None);
        assert!(FIELD_NAMES.windows(2).all(|w| matches!(w, [a, b] if a < b)));
    }
}
