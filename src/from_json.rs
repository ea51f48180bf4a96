//! Typed values read from a parsed `serde_json::Value`, for the data the page reads (SGLang's
//! flag schemas, the model catalog and SGLang's architecture lists). serde's derived visitors compiled one
//! parser per struct and field type (~60 KB of the page's wasm); these readers walk the one
//! `Value` serde_json already parses. They read as serde's derive would: unknown keys are
//! ignored, a missing or null `Option` field is None, a missing field listed as defaulted is its
//! type's default, any other missing field or value of another type is an error.

use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;

pub trait FromJson: Sized {
    fn from_json(v: &Value) -> Result<Self, String>;
    /// What a missing key gives (serde: None for an `Option`, else an error).
    fn missing(key: &str) -> Result<Self, String> {
        Err(format!("missing field `{key}`"))
    }
}

fn wrong(expected: &str, v: &Value) -> String {
    format!("invalid type: {v}, expected {expected}")
}

/// The value of `key` in `object`, read as `T`.
pub fn read<T: FromJson>(object: &Map<String, Value>, key: &str) -> Result<T, String> {
    match object.get(key) {
        Some(v) => T::from_json(v).map_err(|e| format!("{key}: {e}")),
        None => T::missing(key),
    }
}

/// Reads a struct's fields from one object with no early return: a field that cannot be read
/// is its type's default, and [`Fields::finish`] gives the first such error instead of the
/// struct. (Returning at each field, the drops of the fields read before it were most of the
/// readers' code: ~45 KB of the page's wasm for the catalog's structs.)
pub struct Fields<'a> {
    object: &'a Map<String, Value>,
    error: Option<String>,
}

impl<'a> Fields<'a> {
    pub fn of(v: &'a Value, what: &str) -> Result<Fields<'a>, String> {
        Ok(Fields { object: object(v, what)?, error: None })
    }

    /// The value of `key`, read as `T` (a missing key: [`FromJson::missing`]).
    pub fn read<T: FromJson + Default>(&mut self, key: &str) -> T {
        let read = read(self.object, key);
        self.keep(read)
    }

    /// Like [`Fields::read`], a missing key being `T::default()` (serde's `#[serde(default)]`).
    pub fn read_or_default<T: FromJson + Default>(&mut self, key: &str) -> T {
        match self.object.contains_key(key) {
            true => self.read(key),
            false => T::default(),
        }
    }

    fn keep<T: Default>(&mut self, read: Result<T, String>) -> T {
        read.unwrap_or_else(|e| {
            self.error.get_or_insert(e);
            T::default()
        })
    }

    /// The struct read, or the first error.
    pub fn finish<T>(self, value: T) -> Result<T, String> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }
}

pub fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object().ok_or_else(|| wrong(what, v))
}

impl FromJson for String {
    fn from_json(v: &Value) -> Result<Self, String> {
        v.as_str().map(str::to_string).ok_or_else(|| wrong("a string", v))
    }
}

impl FromJson for i64 {
    fn from_json(v: &Value) -> Result<Self, String> {
        v.as_i64().ok_or_else(|| wrong("i64", v))
    }
}

impl FromJson for u32 {
    fn from_json(v: &Value) -> Result<Self, String> {
        v.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| wrong("u32", v))
    }
}

impl FromJson for usize {
    fn from_json(v: &Value) -> Result<Self, String> {
        v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| wrong("usize", v))
    }
}

impl FromJson for bool {
    fn from_json(v: &Value) -> Result<Self, String> {
        v.as_bool().ok_or_else(|| wrong("a boolean", v))
    }
}

impl FromJson for Number {
    fn from_json(v: &Value) -> Result<Self, String> {
        match v {
            Value::Number(n) => Ok(n.clone()),
            _ => Err(wrong("a number", v)),
        }
    }
}

impl FromJson for Map<String, Value> {
    fn from_json(v: &Value) -> Result<Self, String> {
        object(v, "a map").cloned()
    }
}

/// Any value, as it is (serde: a missing one is an error).
impl FromJson for Value {
    fn from_json(v: &Value) -> Result<Self, String> {
        Ok(v.clone())
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Value) -> Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }
    fn missing(_: &str) -> Result<Self, String> {
        Ok(None)
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Value) -> Result<Self, String> {
        v.as_array().ok_or_else(|| wrong("a sequence", v))?.iter().map(T::from_json).collect()
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(v: &Value) -> Result<Self, String> {
        let mut out = BTreeMap::new();
        for (k, x) in object(v, "a map")? {
            out.insert(k.clone(), T::from_json(x).map_err(|e| format!("{k}: {e}"))?);
        }
        Ok(out)
    }
}

impl<T: FromJson> FromJson for std::collections::HashMap<String, T> {
    fn from_json(v: &Value) -> Result<Self, String> {
        let mut out = std::collections::HashMap::new();
        for (k, x) in object(v, "a map")? {
            out.insert(k.clone(), T::from_json(x).map_err(|e| format!("{k}: {e}"))?);
        }
        Ok(out)
    }
}

/// `FromJson` for a struct of named fields: `from_json!(Name { read as written; default: missing
/// ones are the default })`; with `..` last, the fields not listed are the struct's default.
#[macro_export]
macro_rules! from_json {
    ($name:ident { $($field:ident),* $(,)? $(; default: $($defaulted:ident),* $(,)?)? } $($rest:tt)?) => {
        impl $crate::from_json::FromJson for $name {
            fn from_json(v: &serde_json::Value) -> Result<Self, String> {
                let mut fields = $crate::from_json::Fields::of(v, stringify!($name))?;
                let value = $name {
                    $($field: fields.read(stringify!($field)),)*
                    $($($defaulted: fields.read_or_default(stringify!($defaulted)),)*)?
                    $($rest Default::default())?
                };
                fields.finish(value)
            }
        }
    };
}

/// `T` from JSON text.
pub fn parse<T: FromJson>(text: &str) -> Result<T, String> {
    T::from_json(&serde_json::from_str::<Value>(text).map_err(|e| e.to_string())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Default, PartialEq)]
    struct Inner {
        n: i64,
    }
    crate::from_json!(Inner { n });

    #[derive(Debug, Default, PartialEq)]
    struct Outer {
        name: String,
        maybe: Option<i64>,
        inner: Option<Inner>,
        list: Vec<String>,
        kept: Vec<String>,
    }
    crate::from_json!(Outer { name, maybe, inner; default: list } ..);

    #[test]
    fn reads_as_serde_derive_does() {
        let read = |v: Value| Outer::from_json(&v);
        assert_eq!(read(json!({"name": "a", "extra": 1})), Ok(Outer { name: "a".into(), ..Outer::default() }));
        assert_eq!(read(json!({"name": "a", "maybe": null, "inner": {"n": 2}, "list": ["x"]})).map(|o| (o.maybe, o.inner, o.list)), Ok((None, Some(Inner { n: 2 }), vec!["x".to_string()])));
        assert!(read(json!({})).is_err_and(|e| e.contains("missing field `name`")));
        assert!(read(json!({"name": 1})).is_err());
        assert!(read(json!({"name": "a", "maybe": 1.5})).is_err());
        assert!(read(json!({"name": "a", "list": null})).is_err());
        assert!(read(json!({"name": "a", "inner": {}})).is_err());
        assert!(read(json!([])).is_err());
    }
}
