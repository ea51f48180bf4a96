//! pydantic's `Model.model_validate_json(text)`, as far as SGLang lets its error through
//! (`KVEventsConfig.from_cli`): the JSON is parsed by jiter (pydantic-core's parser), whose
//! syntax errors are reported as one `json_invalid` error, and the parsed value is then
//! validated against the model's fields. This module reproduces jiter's syntax verdicts and
//! error positions and the text of pydantic's `ValidationError`; what it cannot reproduce
//! exactly it reports as [`JsonScan::Unknown`], never a guess.


/// The `major.minor` of pydantic in the errors' documentation links
/// (`https://errors.pydantic.dev/2.14/v/json_invalid`). SGLang does not pin pydantic; this is
/// the release the recorder installs (`tools/recorder/setup.sh`: pydantic 2.14.4), whose text
/// the fixtures hold.
pub const DOCS_VERSION: &str = "2.14";

/// What jiter makes of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonScan {
    /// Valid JSON.
    Valid,
    /// jiter's error description: `trailing comma at line 1 column 21`.
    Invalid(String),
    /// A shape whose verdict or error position is not reproduced here (numbers beyond the
    /// plain forms, surrogate escapes, deep nesting).
    Unknown,
}

/// One error of a `ValidationError`.
pub struct LineError {
    /// The field (`loc`), or None for the model itself.
    pub loc: Option<String>,
    pub msg: String,
    /// pydantic's error type (`string_type`), also the documentation page.
    pub kind: &'static str,
    /// `repr` of the input value (before truncation).
    pub input_repr: String,
    pub input_type: &'static str,
}

/// `str(ValidationError)` for `title` (the model's name) with these errors.
pub fn validation_error(title: &str, errors: &[LineError]) -> String {
    let n = errors.len();
    let mut out = format!("{n} validation error{} for {title}", if n == 1 { "" } else { "s" });
    for e in errors {
        out.push('\n');
        if let Some(loc) = &e.loc {
            out.push_str(loc);
            out.push('\n');
        }
        out.push_str(&format!(
            "  {} [type={}, input_value={}, input_type={}]\n    For further information visit https://errors.pydantic.dev/{DOCS_VERSION}/v/{}",
            e.msg,
            e.kind,
            truncated(&e.input_repr),
            e.input_type,
            e.kind
        ));
    }
    out
}

/// The error for a text that is not JSON: `Invalid JSON: {jiter's description}`.
pub fn json_invalid(text: &str, description: &str) -> LineError {
    LineError {
        loc: None,
        msg: format!("Invalid JSON: {description}"),
        kind: "json_invalid",
        input_repr: crate::pyvalue::str_repr(text),
        input_type: "str",
    }
}

/// pydantic shortens an input's repr longer than 50 characters to its first 25 and last 24.
fn truncated(repr: &str) -> String {
    let count = repr.chars().count();
    if count <= 50 {
        return repr.to_string();
    }
    let head: String = repr.chars().take(25).collect();
    let tail: String = repr.chars().skip(count - 24).collect();
    format!("{head}...{tail}")
}

/// jiter's verdict on `text` (as pydantic-core parses it: NaN and Infinity allowed, big ints
/// kept).
pub fn scan(text: &str) -> JsonScan {
    let data = text.as_bytes();
    let mut p = Scanner { data, i: 0, depth: 0 };
    let result = p.peek().and_then(|peek| p.value(peek)).and_then(|()| p.finish());
    match result {
        Ok(()) => JsonScan::Valid,
        Err(Fail::Error(kind, index)) => JsonScan::Invalid(format!("{kind} at {}", position(data, index))),
        Err(Fail::Unknown) => JsonScan::Unknown,
    }
}

/// jiter's `LinePosition::find`: 1-based line; the column counts bytes, from 1 within the
/// text and the line's length past its end.
fn position(data: &[u8], find: usize) -> String {
    let mut line = 1;
    let mut last_line_start = 0;
    for (index, &b) in data.iter().enumerate() {
        if b == b'\n' {
            line += 1;
            last_line_start = index + 1;
        }
        if index == find {
            return format!("line {line} column {}", index + 1 - last_line_start);
        }
    }
    format!("line {line} column {}", data.len().saturating_sub(last_line_start))
}

enum Fail {
    Error(&'static str, usize),
    Unknown,
}

/// The digits a JSON number needs at `index` (after its `.` or exponent): the index past them.
/// Input that ends there leaves the value unknown (the parser may be reading a cut-off float).
fn digit_run(data: &[u8], mut index: usize) -> Result<usize, Fail> {
    match data.get(index) {
        None => return Err(Fail::Unknown),
        Some(b) if b.is_ascii_digit() => {}
        Some(_) => return Err(Fail::Error("invalid number", index)),
    }
    while data.get(index).is_some_and(u8::is_ascii_digit) {
        index += 1;
    }
    Ok(index)
}

const EOF_VALUE: &str = "EOF while parsing a value";
const EOF_LIST: &str = "EOF while parsing a list";
const EOF_OBJECT: &str = "EOF while parsing an object";
const EOF_STRING: &str = "EOF while parsing a string";

/// jiter's recursion limit is 200 nested containers; stay well below it.
const MAX_DEPTH: usize = 150;

struct Scanner<'a> {
    data: &'a [u8],
    i: usize,
    depth: usize,
}

impl Scanner<'_> {
    fn eat_whitespace(&mut self) -> Option<u8> {
        while let Some(&b) = self.data.get(self.i) {
            match b {
                b' ' | b'\r' | b'\t' | b'\n' => self.i += 1,
                _ => return Some(b),
            }
        }
        None
    }

    fn peek(&mut self) -> Result<u8, Fail> {
        self.eat_whitespace().ok_or(Fail::Error(EOF_VALUE, self.i))
    }

    fn finish(&mut self) -> Result<(), Fail> {
        match self.eat_whitespace() {
            None => Ok(()),
            Some(_) => Err(Fail::Error("trailing characters", self.i)),
        }
    }

    /// The value starting at `self.i` (whose first byte is `peek`).
    fn value(&mut self, peek: u8) -> Result<(), Fail> {
        match peek {
            b't' => self.ident(b"rue"),
            b'f' => self.ident(b"alse"),
            b'n' => self.ident(b"ull"),
            b'"' => self.string(),
            b'[' => self.array(),
            b'{' => self.object(),
            b'-' | b'0'..=b'9' | b'I' | b'N' => self.number(peek),
            _ => Err(Fail::Error("expected value", self.i)),
        }
    }

    /// `consume_ident`: the rest of `true` / `false` / `null` / `NaN` / `Infinity` after its
    /// first byte at `self.i`.
    fn ident(&mut self, rest: &[u8]) -> Result<(), Fail> {
        let mut index = self.i + 1;
        for c in rest {
            match self.data.get(index) {
                Some(v) if v == c => index += 1,
                Some(_) => return Err(Fail::Error("expected ident", index)),
                None => return Err(Fail::Error(EOF_VALUE, index)),
            }
        }
        self.i = index;
        Ok(())
    }

    /// A string whose opening quote is at `self.i`.
    fn string(&mut self) -> Result<(), Fail> {
        let mut index = self.i + 1;
        loop {
            match self.data.get(index) {
                None => return Err(Fail::Error(EOF_STRING, index)),
                Some(b'"') => {
                    self.i = index + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    index += 1;
                    match self.data.get(index) {
                        None => return Err(Fail::Error(EOF_STRING, index)),
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => index += 1,
                        Some(b'u') => {
                            // jiter reads the four digits at once: fewer left is the end of the text
                            if self.data.len() < index + 5 {
                                return Err(Fail::Error(EOF_STRING, self.data.len()));
                            }
                            let mut n: u32 = 0;
                            for _ in 0..4 {
                                index += 1;
                                let c = self.data.get(index).copied().unwrap_or(0);
                                let d = match c {
                                    b'0'..=b'9' => c - b'0',
                                    b'a'..=b'f' => c - b'a' + 10,
                                    b'A'..=b'F' => c - b'A' + 10,
                                    _ => return Err(Fail::Error("invalid escape", index)),
                                };
                                n = n * 16 + u32::from(d);
                            }
                            if (0xD800..=0xDFFF).contains(&n) {
                                // surrogate pairs and lone surrogates: not reproduced
                                return Err(Fail::Unknown);
                            }
                            index += 1;
                        }
                        Some(_) => return Err(Fail::Error("invalid escape", index)),
                    }
                }
                Some(&b) if b < 0x20 => return Err(Fail::Error("control character (\\u0000-\\u001F) found while parsing a string", index)),
                Some(_) => index += 1,
            }
        }
    }

    fn enter(&mut self) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Fail::Unknown);
        }
        Ok(())
    }

    /// An array whose `[` is at `self.i`.
    fn array(&mut self) -> Result<(), Fail> {
        self.enter()?;
        self.i += 1;
        let mut peek = match self.eat_whitespace() {
            None => return Err(Fail::Error(EOF_LIST, self.i)),
            Some(b']') => {
                self.i += 1;
                self.depth -= 1;
                return Ok(());
            }
            Some(b) => b,
        };
        loop {
            self.value(peek)?;
            match self.eat_whitespace() {
                None => return Err(Fail::Error(EOF_LIST, self.i)),
                Some(b',') => {
                    self.i += 1;
                    peek = match self.eat_whitespace() {
                        None => return Err(Fail::Error(EOF_VALUE, self.i)),
                        Some(b']') => return Err(Fail::Error("trailing comma", self.i)),
                        Some(b) => b,
                    };
                }
                Some(b']') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                Some(_) => return Err(Fail::Error("expected `,` or `]`", self.i)),
            }
        }
    }

    /// An object whose `{` is at `self.i`.
    fn object(&mut self) -> Result<(), Fail> {
        self.enter()?;
        self.i += 1;
        match self.eat_whitespace() {
            None => return Err(Fail::Error(EOF_OBJECT, self.i)),
            Some(b'}') => {
                self.i += 1;
                self.depth -= 1;
                return Ok(());
            }
            Some(b'"') => {}
            Some(_) => return Err(Fail::Error("key must be a string", self.i)),
        }
        loop {
            // the key (its quote at self.i), then the colon
            self.string()?;
            match self.eat_whitespace() {
                None => return Err(Fail::Error(EOF_OBJECT, self.i)),
                Some(b':') => self.i += 1,
                Some(_) => return Err(Fail::Error("expected `:`", self.i)),
            }
            let peek = self.peek()?;
            self.value(peek)?;
            match self.eat_whitespace() {
                None => return Err(Fail::Error(EOF_OBJECT, self.i)),
                Some(b',') => {
                    self.i += 1;
                    match self.eat_whitespace() {
                        None => return Err(Fail::Error(EOF_VALUE, self.i)),
                        Some(b'"') => {}
                        Some(b'}') => return Err(Fail::Error("trailing comma", self.i)),
                        Some(_) => return Err(Fail::Error("key must be a string", self.i)),
                    }
                }
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                Some(_) => return Err(Fail::Error("expected `,` or `}`", self.i)),
            }
        }
    }

    /// A number (or NaN / Infinity) starting at `self.i`: the plain JSON forms; the others
    /// (a float cut short by the end of the text, a float followed by more number characters,
    /// ints past 4000 digits) are not reproduced.
    fn number(&mut self, first: u8) -> Result<(), Fail> {
        let data = self.data;
        let mut index = self.i;
        if first == b'N' {
            return self.ident(b"aN");
        }
        if first == b'-' {
            index += 1;
        }
        match data.get(index) {
            None => return Err(Fail::Error(EOF_VALUE, index)),
            Some(b'I') => {
                self.i = index;
                return self.ident(b"nfinity");
            }
            Some(b'0') => {
                index += 1;
                if data.get(index).is_some_and(u8::is_ascii_digit) {
                    return Err(Fail::Error("invalid number", index));
                }
            }
            Some(b'1'..=b'9') => {
                let start = index;
                while data.get(index).is_some_and(u8::is_ascii_digit) {
                    index += 1;
                }
                if index - start > 4000 {
                    return Err(Fail::Unknown);
                }
            }
            Some(_) => return Err(Fail::Error("invalid number", index)),
        }
        let mut float = false;
        if data.get(index) == Some(&b'.') {
            float = true;
            index += 1;
            index = digit_run(data, index)?;
        }
        if matches!(data.get(index), Some(b'e' | b'E')) {
            float = true;
            index += 1;
            if matches!(data.get(index), Some(b'+' | b'-')) {
                index += 1;
            }
            index = digit_run(data, index)?;
        }
        if float && matches!(data.get(index), Some(b'.' | b'e' | b'E' | b'+' | b'-')) {
            return Err(Fail::Unknown);
        }
        self.i = index;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(text: &str) -> String {
        match scan(text) {
            JsonScan::Invalid(d) => d,
            other => format!("{other:?}"),
        }
    }

    /// Descriptions read from pydantic-core 2.46 (`model_validate_json`).
    #[test]
    fn jiter_errors() {
        assert_eq!(invalid("{"), "EOF while parsing an object at line 1 column 1");
        assert_eq!(invalid(""), "EOF while parsing a value at line 1 column 0");
        assert_eq!(invalid(" "), "EOF while parsing a value at line 1 column 1");
        assert_eq!(invalid("{\"publisher\": \"zmq\",}"), "trailing comma at line 1 column 21");
        assert_eq!(invalid("{\"publisher\": zmq}"), "expected value at line 1 column 15");
        assert_eq!(invalid("{\"a\":1} x"), "trailing characters at line 1 column 9");
        assert_eq!(invalid("nul"), "EOF while parsing a value at line 1 column 3");
        assert_eq!(invalid("{\"a\": tru }"), "expected ident at line 1 column 10");
        assert_eq!(invalid("{\"a\": truex}"), "expected `,` or `}` at line 1 column 11");
        assert_eq!(invalid("{\"a\" 1}"), "expected `:` at line 1 column 6");
        assert_eq!(invalid("{1:2}"), "key must be a string at line 1 column 2");
        assert_eq!(invalid("{\"a\":1,,}"), "key must be a string at line 1 column 8");
        assert_eq!(invalid("[1,]"), "trailing comma at line 1 column 4");
        assert_eq!(invalid("[,]"), "expected value at line 1 column 2");
        assert_eq!(invalid("[1 2]"), "expected `,` or `]` at line 1 column 4");
        assert_eq!(invalid("[1,"), "EOF while parsing a value at line 1 column 3");
        assert_eq!(invalid("{\"a"), "EOF while parsing a string at line 1 column 3");
        assert_eq!(invalid("\"abc\\"), "EOF while parsing a string at line 1 column 5");
        assert_eq!(invalid("{\"publisher\": \"\\x\"}"), "invalid escape at line 1 column 17");
        assert_eq!(invalid("{\"a\":\"\\u12\"}"), "invalid escape at line 1 column 11");
        assert_eq!(invalid("{\"publisher\": \"a\tb\"}"), "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 17");
        assert_eq!(invalid("{\"a\":-}"), "invalid number at line 1 column 7");
        assert_eq!(invalid("{\"a\":01}"), "invalid number at line 1 column 7");
        assert_eq!(invalid("{\"a\":1.}"), "invalid number at line 1 column 8");
        assert_eq!(invalid("{\"a\": 1.5e+}"), "invalid number at line 1 column 12");
        assert_eq!(invalid("{\"a\": nan}"), "expected ident at line 1 column 8");
        assert_eq!(invalid("\n{\n\"a\":\n"), "EOF while parsing a value at line 4 column 0");
        assert_eq!(invalid("\u{feff}{}"), "expected value at line 1 column 1");
        assert_eq!(scan("{\"a\": -Infinity, \"b\": NaN, \"c\": 99999999999999999999999}"), JsonScan::Valid);
        assert_eq!(scan("{\"publisher\": \"a\\u00e9\"}"), JsonScan::Valid);
        assert_eq!(scan("[1.5"), JsonScan::Invalid("EOF while parsing a list at line 1 column 4".into()));
        assert_eq!(scan("[1."), JsonScan::Unknown);
    }

    #[test]
    fn error_text() {
        let e = json_invalid("{", "EOF while parsing an object at line 1 column 1");
        assert_eq!(
            validation_error("KVEventsConfig", &[e]),
            "1 validation error for KVEventsConfig\n  Invalid JSON: EOF while parsing an object at line 1 column 1 [type=json_invalid, input_value='{', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.14/v/json_invalid"
        );
        assert_eq!(truncated(&crate::pyvalue::str_repr(&"x".repeat(100))), format!("'{}...{}'", "x".repeat(24), "x".repeat(23)));
        assert_eq!(truncated(&crate::pyvalue::str_repr(&"a".repeat(48))), format!("'{}'", "a".repeat(48)));
    }
}
