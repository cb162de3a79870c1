//! A small JSON value with a strict RFC 8259 parser and a compact writer.
//!
//! Enough for Botzone's input and output, with no crate: integers are kept
//! exact (`i64`, or `u64` above `i64::MAX`; larger ones become `f64`, as
//! serde_json does), objects keep their keys in input order (a repeated key
//! keeps its first place and its last value), and every error carries the
//! byte offset and what was expected there.
//!
//! ```
//! use botzone::json::{self, Value};
//!
//! let v: Value = r#"{"action": 2, "taunt": "h\u00e9"}"#.parse().unwrap();
//! assert_eq!(v["action"].as_i64(), Some(2));
//! assert_eq!(v["taunt"].as_str(), Some("hé"));
//! assert!(v["missing"].is_null());
//!
//! let out = json::object([("action", Value::from(-1)), ("tauntText", Value::from(""))]);
//! assert_eq!(out.to_string(), r#"{"action":-1,"tauntText":""}"#);
//!
//! let err = Value::parse("[1, 2").unwrap_err();
//! assert_eq!(err.offset(), 5);
//! assert!(err.is_eof());
//! ```

use std::fmt::{self, Write as _};
use std::ops::Index;
use std::str::FromStr;

/// How deeply arrays and objects may nest before the parser gives up.
pub const MAX_DEPTH: usize = 128;

/// A JSON value.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, keys in input order.
    Object(Map),
}

/// A JSON number: an exact integer or a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX` that fits `u64`.
    UInt(u64),
    /// Any other number (a fraction, an exponent, or a larger integer).
    Float(f64),
}

impl Number {
    /// The value as `i64`, if it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Number::Int(i) => Some(i),
            Number::UInt(_) | Number::Float(_) => None,
        }
    }

    /// The value as `u64`, if it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Number::Int(i) => u64::try_from(i).ok(),
            Number::UInt(u) => Some(u),
            Number::Float(_) => None,
        }
    }

    /// The value as `f64` (rounded for large integers).
    pub fn as_f64(&self) -> f64 {
        match *self {
            Number::Int(i) => i as f64,
            Number::UInt(u) => u as f64,
            Number::Float(f) => f,
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::Int(i) => write!(f, "{i}"),
            Number::UInt(u) => write!(f, "{u}"),
            // Debug always writes a '.' or an exponent, so the text reads
            // back as a float; JSON has no NaN or infinity.
            Number::Float(x) if x.is_finite() => write!(f, "{x:?}"),
            Number::Float(_) => f.write_str("null"),
        }
    }
}

/// An object's members in insertion order. Two objects are equal when
/// they have the same members, in any order.
#[derive(Clone, Debug, Default)]
pub struct Map {
    entries: Vec<(String, Value)>,
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Map {
    /// An empty object.
    pub fn new() -> Self {
        Map::default()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` to `value`, returning the previous value. A new key goes
    /// last; an existing key keeps its place.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        let key = key.into();
        match self.get_mut(&key) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.remove(i).1)
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no member.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The members in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The members in order, values mutable.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Puts the members in key order (bytewise), as jsoncpp and serde_json
    /// write objects.
    pub fn sort_keys(&mut self) {
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
    }
}

impl<K: Into<String>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let mut map = Map::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

/// Builds an object from `(key, value)` pairs.
pub fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Value)>) -> Value {
    Value::Object(members.into_iter().collect())
}

static NULL: Value = Value::Null;

impl Value {
    /// Parses one JSON document (surrounding whitespace allowed).
    ///
    /// # Errors
    /// Any departure from RFC 8259, nesting deeper than [`MAX_DEPTH`], or a
    /// number out of `f64`'s range, with the byte offset where it was found.
    pub fn parse(text: &str) -> Result<Value, Error> {
        Parser::new(text.as_bytes()).document()
    }

    /// Parses one JSON document from bytes, which must be UTF-8.
    ///
    /// # Errors
    /// As [`Value::parse`], and invalid UTF-8 at its offset.
    pub fn from_slice(bytes: &[u8]) -> Result<Value, Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Value::parse(text),
            Err(e) => {
                // Report a syntax error that comes first, if any.
                let valid = &bytes[..e.valid_up_to()];
                match Parser::new(valid).document() {
                    Err(err) if !err.is_eof() => Err(err),
                    _ => Err(Error::new(e.valid_up_to(), ErrorKind::InvalidUtf8)),
                }
            }
        }
    }

    /// The value's kind, for messages: "null", "a boolean", "a number",
    /// "a string", "an array" or "an object".
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<Number> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The integer, if this is an integer that fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The integer, if this is a non-negative integer that fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as `f64`, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        Some(self.as_number()?.as_f64())
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    /// Element `i`, if this is an array that long.
    pub fn get_index(&self, i: usize) -> Option<&Value> {
        self.as_array()?.get(i)
    }

    /// Puts the members of every object in this value in key order
    /// ([`Map::sort_keys`]).
    pub fn sort_keys(&mut self) {
        match self {
            Value::Array(items) => items.iter_mut().for_each(Value::sort_keys),
            Value::Object(map) => {
                map.sort_keys();
                map.values_mut().for_each(Value::sort_keys);
            }
            _ => {}
        }
    }

    /// Appends the compact text of this value to `out`.
    pub fn write_to(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(n) => {
                let _ = write!(out, "{n}");
            }
            Value::String(s) => write_string(s, out),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_to(out);
                }
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(k, out);
                    out.push(':');
                    v.write_to(out);
                }
                out.push('}');
            }
        }
    }
}

/// Appends `s` as a JSON string literal to `out`.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

impl fmt::Display for Value {
    /// The compact JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write_to(&mut out);
        f.write_str(&out)
    }
}

impl FromStr for Value {
    type Err = Error;
    fn from_str(s: &str) -> Result<Value, Error> {
        Value::parse(s)
    }
}

impl Index<&str> for Value {
    type Output = Value;
    /// The member `key`, or `null` when absent or not an object.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl Index<usize> for Value {
    type Output = Value;
    /// Element `i`, or `null` when absent or not an array.
    fn index(&self, i: usize) -> &Value {
        self.get_index(i).unwrap_or(&NULL)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::Int(i64::from(n)))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32);

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(match i64::try_from(n) {
            Ok(i) => Number::Int(i),
            Err(_) => Number::UInt(n),
        })
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::from(n as u64)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Number(Number::Float(x))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

/// A parse error: where, and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    offset: usize,
    kind: ErrorKind,
}

/// What went wrong while parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text ended where `expected` was still needed.
    UnexpectedEnd {
        /// What the parser was looking for.
        expected: &'static str,
    },
    /// A character other than `expected` was found.
    Unexpected {
        /// The offending character.
        found: char,
        /// What the parser was looking for.
        expected: &'static str,
    },
    /// A backslash followed by something that is not an escape.
    InvalidEscape,
    /// A `\u` escape without four hex digits, or a surrogate without its pair.
    InvalidUnicodeEscape,
    /// A raw control character (below U+0020) inside a string.
    ControlCharacter,
    /// A number whose magnitude is beyond `f64`.
    NumberOutOfRange,
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More text after a complete document.
    TrailingCharacters,
    /// Bytes that are not UTF-8.
    InvalidUtf8,
}

impl Error {
    fn new(offset: usize, kind: ErrorKind) -> Self {
        Error { offset, kind }
    }

    /// The byte offset of the problem in the input.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Whether the text was a valid but unfinished prefix of a document
    /// (more input could complete it).
    pub fn is_eof(&self) -> bool {
        matches!(self.kind, ErrorKind::UnexpectedEnd { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON at byte {}: ", self.offset)?;
        match &self.kind {
            ErrorKind::UnexpectedEnd { expected } => {
                write!(f, "the text ends where {expected} was expected")
            }
            ErrorKind::Unexpected { found, expected } => {
                write!(f, "expected {expected}, found {found:?}")
            }
            ErrorKind::InvalidEscape => f.write_str("invalid escape in a string"),
            ErrorKind::InvalidUnicodeEscape => {
                f.write_str("invalid \\u escape (four hex digits; surrogates in pairs)")
            }
            ErrorKind::ControlCharacter => f.write_str("control character in a string (escape it)"),
            ErrorKind::NumberOutOfRange => f.write_str("number out of range"),
            ErrorKind::TooDeep => write!(f, "nested deeper than {MAX_DEPTH} levels"),
            ErrorKind::TrailingCharacters => f.write_str("text after the end of the document"),
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
        }
    }
}

impl std::error::Error for Error {}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Parser {
            bytes,
            pos: 0,
            depth: 0,
        }
    }

    fn document(mut self) -> Result<Value, Error> {
        let value = self.value()?;
        self.skip_ws();
        if self.pos < self.bytes.len() {
            return Err(self.error(ErrorKind::TrailingCharacters));
        }
        Ok(value)
    }

    fn error(&self, kind: ErrorKind) -> Error {
        Error::new(self.pos, kind)
    }

    /// An error for the byte at `pos` (or the end), given what was expected.
    fn unexpected(&self, expected: &'static str) -> Error {
        match self.bytes.get(self.pos) {
            None => self.error(ErrorKind::UnexpectedEnd { expected }),
            Some(_) => {
                let rest = &self.bytes[self.pos..];
                let found = std::str::from_utf8(&rest[..rest.len().min(4)])
                    .ok()
                    .or_else(|| (1..4).find_map(|n| std::str::from_utf8(rest.get(..n)?).ok()))
                    .and_then(|s| s.chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                self.error(ErrorKind::Unexpected { found, expected })
            }
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn value(&mut self) -> Result<Value, Error> {
        self.skip_ws();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected("a value")),
        }
    }

    fn literal(&mut self, word: &'static str, value: Value) -> Result<Value, Error> {
        for &b in word.as_bytes() {
            if self.peek() != Some(b) {
                return Err(self.unexpected(word));
            }
            self.pos += 1;
        }
        Ok(value)
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(ErrorKind::TooDeep));
        }
        self.pos += 1;
        Ok(())
    }

    fn array(&mut self) -> Result<Value, Error> {
        self.enter()?;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            loop {
                items.push(self.value()?);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or ']'")),
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn object(&mut self) -> Result<Value, Error> {
        self.enter()?;
        let mut map = Map::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                self.skip_ws();
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected("a string key"));
                }
                let key = self.string()?;
                self.skip_ws();
                if self.peek() != Some(b':') {
                    return Err(self.unexpected("':'"));
                }
                self.pos += 1;
                let value = self.value()?;
                map.insert(key, value);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or '}'")),
                }
            }
        }
        self.depth -= 1;
        Ok(Value::Object(map))
    }

    fn string(&mut self) -> Result<String, Error> {
        self.pos += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(self.utf8(start, self.pos)?);
            match self.peek() {
                None => return Err(self.error(ErrorKind::UnexpectedEnd { expected: "'\"'" })),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.error(ErrorKind::ControlCharacter)),
            }
        }
    }

    fn utf8(&self, start: usize, end: usize) -> Result<&'a str, Error> {
        std::str::from_utf8(&self.bytes[start..end])
            .map_err(|e| Error::new(start + e.valid_up_to(), ErrorKind::InvalidUtf8))
    }

    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let Some(b) = self.peek() else {
            return Err(self.error(ErrorKind::UnexpectedEnd {
                expected: "an escape",
            }));
        };
        self.pos += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode_escape()?,
            _ => {
                self.pos -= 1;
                return Err(self.error(ErrorKind::InvalidEscape));
            }
        };
        out.push(c);
        Ok(())
    }

    /// After `\u`: four hex digits, and for a high surrogate its low pair.
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let at = self.pos - 2;
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                    let rest = &self.bytes[self.pos..];
                    if rest.is_empty() || rest == b"\\" {
                        return Err(self.error(ErrorKind::UnexpectedEnd {
                            expected: "a low surrogate",
                        }));
                    }
                    return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape));
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape)),
            _ => first,
        };
        char::from_u32(code).ok_or(Error::new(at, ErrorKind::InvalidUnicodeEscape))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                None => {
                    return Err(self.error(ErrorKind::UnexpectedEnd {
                        expected: "a hex digit",
                    }))
                }
                Some(b) => (b as char)
                    .to_digit(16)
                    .ok_or_else(|| self.error(ErrorKind::InvalidUnicodeEscape))?,
            };
            code = code * 16 + digit;
            self.pos += 1;
        }
        Ok(code)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Value, Error> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.unexpected("a digit")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.unexpected("a digit after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.unexpected("a digit in the exponent"));
            }
        }
        // The grammar above admits ASCII only.
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("");
        // "-0" stays a float so that its sign survives, as in serde_json.
        if integer && text != "-0" {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Number(Number::Int(i)));
            }
            if let Ok(u) = text.parse::<u64>() {
                return Ok(Value::Number(Number::UInt(u)));
            }
        }
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Value::Number(Number::Float(x))),
            _ => Err(Error::new(start, ErrorKind::NumberOutOfRange)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Error {
        Value::parse(text).unwrap_err()
    }

    #[test]
    fn scalars_and_exact_integers() {
        assert_eq!(Value::parse(" null ").unwrap(), Value::Null);
        assert_eq!(
            Value::parse("9223372036854775807").unwrap().as_i64(),
            Some(i64::MAX)
        );
        assert_eq!(
            Value::parse("-9223372036854775808").unwrap().as_i64(),
            Some(i64::MIN)
        );
        assert_eq!(
            Value::parse("18446744073709551615").unwrap().as_u64(),
            Some(u64::MAX)
        );
        assert_eq!(
            Value::parse("18446744073709551616").unwrap().as_f64(),
            Some(18446744073709551616.0)
        );
        assert_eq!(Value::parse("1.5e3").unwrap().as_f64(), Some(1500.0));
        assert_eq!(
            Value::parse("1e400").unwrap_err().kind(),
            &ErrorKind::NumberOutOfRange
        );
    }

    #[test]
    fn strings_and_escapes() {
        let v = Value::parse(r#""a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00""#).unwrap();
        assert_eq!(v.as_str(), Some("a\"\\/\u{8}\u{c}\n\r\tAé😀"));
        assert_eq!(v.to_string(), "\"a\\\"\\\\/\\b\\f\\n\\r\\tAé😀\"");
        assert_eq!(err(r#""\ud83d""#).kind(), &ErrorKind::InvalidUnicodeEscape);
        assert_eq!(err(r#""\ude00""#).kind(), &ErrorKind::InvalidUnicodeEscape);
        assert_eq!(
            err(r#""\ud83d\u0041""#).kind(),
            &ErrorKind::InvalidUnicodeEscape
        );
        assert_eq!(err("\"\u{1}\"").kind(), &ErrorKind::ControlCharacter);
        assert_eq!(err(r#""\x""#).kind(), &ErrorKind::InvalidEscape);
        assert_eq!(Value::from("\u{1f}").to_string(), "\"\\u001f\"");
    }

    #[test]
    fn errors_name_the_place() {
        let e = err(r#"{"a":1,}"#);
        assert_eq!(e.offset(), 7);
        assert_eq!(
            e.to_string(),
            "invalid JSON at byte 7: expected a string key, found '}'"
        );
        assert!(err("[1,2").is_eof());
        assert!(err("{\"a\"").is_eof());
        assert!(!err("[1,2]x").is_eof());
        assert_eq!(err("01").kind(), &ErrorKind::TrailingCharacters);
        assert_eq!(
            err("").kind(),
            &ErrorKind::UnexpectedEnd {
                expected: "a value"
            }
        );
        assert_eq!(err("[1.]").offset(), 3);
        assert_eq!(
            err("nul").kind(),
            &ErrorKind::UnexpectedEnd { expected: "null" }
        );
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(Value::parse(&ok).is_ok());
        let deep = "[".repeat(100_000);
        assert_eq!(err(&deep).kind(), &ErrorKind::TooDeep);
    }

    #[test]
    fn utf8_bytes() {
        assert_eq!(
            Value::from_slice(b"\"\xff\"").unwrap_err().kind(),
            &ErrorKind::InvalidUtf8
        );
        assert_eq!(Value::from_slice(b"\"\xff\"").unwrap_err().offset(), 1);
        assert_eq!(
            Value::from_slice("\"é\"".as_bytes()).unwrap().as_str(),
            Some("é")
        );
    }

    #[test]
    fn objects_keep_order_and_index() {
        let v = Value::parse(r#"{"b":1,"a":[true,false,null],"b":2}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"b":2,"a":[true,false,null]}"#);
        assert_eq!(v["a"][0], Value::Bool(true));
        assert!(v["a"][9].is_null());
        assert!(v["zz"]["yy"].is_null());
        assert_eq!(Value::from(0.1).to_string(), "0.1");
        assert_eq!(Value::from(1e16).to_string(), "1e16");
        assert_eq!(Value::from(f64::NAN).to_string(), "null");
    }
}
