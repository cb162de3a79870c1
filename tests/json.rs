//! `botzone::json` against serde_json: generated documents both ways,
//! malformed documents (both reject), mutated documents and random bytes
//! (never a panic, and the same verdict as serde_json).

use botzone::json::{Number, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value as Serde;

/// Whether our value and serde_json's are the same JSON value (object key
/// order aside; numbers by kind and value).
fn same(ours: &Value, theirs: &Serde) -> bool {
    match (ours, theirs) {
        (Value::Null, Serde::Null) => true,
        (Value::Bool(a), Serde::Bool(b)) => a == b,
        (Value::Number(a), Serde::Number(b)) => match *a {
            Number::Int(i) => b.as_i64() == Some(i),
            Number::UInt(u) => b.as_i64().is_none() && b.as_u64() == Some(u),
            Number::Float(x) => b.is_f64() && b.as_f64() == Some(x),
        },
        (Value::String(a), Serde::String(b)) => a == b,
        (Value::Array(a), Serde::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), Serde::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        _ => false,
    }
}

fn random_string(rng: &mut StdRng) -> String {
    let len = rng.gen_range(0..12);
    (0..len)
        .map(|_| match rng.gen_range(0..10) {
            0 => char::from(rng.gen_range(0u8..0x20)),
            1 => ['"', '\\', '/', '\u{7f}'][rng.gen_range(0..4)],
            2 => char::from_u32(rng.gen_range(0x80..0xD800)).unwrap(),
            3 => char::from_u32(rng.gen_range(0x10000..0x110000)).unwrap(),
            4 => ['é', '中', '😀', '\u{2028}', '\u{feff}'][rng.gen_range(0..5)],
            _ => char::from(rng.gen_range(b' '..=b'~')),
        })
        .collect()
}

fn random_number(rng: &mut StdRng) -> Serde {
    match rng.gen_range(0..6) {
        0 => Serde::from(rng.gen_range(-1000i64..1000)),
        1 => Serde::from(rng.gen::<i64>()),
        2 => Serde::from(rng.gen::<u64>() | (1 << 63)),
        3 => Serde::from(rng.gen_range(-1e6..1e6f64)),
        4 => {
            // Any finite double, tiny and huge ones included.
            loop {
                let x = f64::from_bits(rng.gen());
                if x.is_finite() {
                    return Serde::from(x);
                }
            }
        }
        _ => Serde::from(
            [0.0, -0.0, 0.1, 1e-300, 5e-324, 1.7976931348623157e308][rng.gen_range(0..6)],
        ),
    }
}

fn random_value(rng: &mut StdRng, depth: u32) -> Serde {
    let leaf = depth == 0 || rng.gen_bool(0.4);
    match rng.gen_range(0..if leaf { 4 } else { 6 }) {
        0 => Serde::Null,
        1 => Serde::Bool(rng.gen()),
        2 => random_number(rng),
        3 => Serde::String(random_string(rng)),
        4 => Serde::Array(
            (0..rng.gen_range(0..5))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => Serde::Object(
            (0..rng.gen_range(0..5))
                .map(|_| (random_string(rng), random_value(rng, depth - 1)))
                .collect(),
        ),
    }
}

#[test]
fn generated_documents_both_ways() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    for i in 0..5000 {
        let doc = random_value(&mut rng, 5);
        let text = if i % 3 == 0 {
            serde_json::to_string_pretty(&doc).unwrap()
        } else {
            serde_json::to_string(&doc).unwrap()
        };
        // serde_json writes, we read.
        let ours = Value::parse(&text).unwrap_or_else(|e| panic!("{e} in {text}"));
        assert!(same(&ours, &doc), "read differently: {text}");
        // We write, serde_json reads: the same value comes back.
        let written = ours.to_string();
        let back: Serde = serde_json::from_str(&written)
            .unwrap_or_else(|e| panic!("serde_json rejects our {written}: {e}"));
        assert!(same(&ours, &back), "wrote differently: {written}");
        // Our compact form is stable.
        assert_eq!(Value::parse(&written).unwrap().to_string(), written);
    }
}

/// Checks that we and serde_json agree on `bytes`: both reject, or both
/// accept the same value. Returns whether it parsed.
fn agree(bytes: &[u8]) -> bool {
    let ours = Value::from_slice(bytes);
    let theirs = serde_json::from_slice::<Serde>(bytes);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert!(
            same(a, b),
            "different values for {:?}",
            String::from_utf8_lossy(bytes)
        ),
        (Err(_), Err(_)) => {}
        _ => panic!(
            "disagree on {:?}: ours {:?}, serde_json {:?}",
            String::from_utf8_lossy(bytes),
            ours.map(|v| v.to_string()),
            theirs.map(|v| v.to_string())
        ),
    }
    ours.is_ok()
}

#[test]
fn malformed_documents_are_rejected_by_both() {
    let cases: &[&[u8]] = &[
        b"",
        b" ",
        b"{",
        b"}",
        b"[",
        b"[1,]",
        b"[,1]",
        b"{\"a\"}",
        b"{\"a\":}",
        b"{\"a\":1,}",
        b"{a:1}",
        b"{'a':1}",
        b"['a']",
        b"01",
        b"-",
        b"+1",
        b"1.",
        b".5",
        b"1e",
        b"1e+",
        b"0x10",
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b"tru",
        b"nul",
        b"True",
        b"\"abc",
        b"\"\\x\"",
        b"\"\\u12\"",
        b"\"\\uZZZZ\"",
        b"\"\\ud800\"",
        b"\"\\udc00\"",
        b"\"\\ud800\\u0041\"",
        b"\"\t\"",
        b"\"\n\"",
        b"\"\x00\"",
        b"[1 2]",
        b"{\"a\" 1}",
        b"1 2",
        b"[]]",
        b"{}}",
        b"\xff",
        b"\"\xff\"",
        b"\"\xc3\x28\"",
        b"\"\xed\xa0\x80\"",
        b"1e400",
        b"-1e400",
        b"[1e999]",
        b"\x0c1",
        b"/*c*/1",
        b"[1]//",
        b"\xef\xbb\xbf1",
    ];
    for case in cases {
        assert!(!agree(case), "accepted {:?}", String::from_utf8_lossy(case));
    }
    let nested = "[".repeat(100_000);
    let err = Value::parse(&nested).unwrap_err();
    assert!(err.to_string().contains("nested deeper"), "{err}");
    assert!(serde_json::from_str::<Serde>(&nested).is_err());
}

#[test]
fn mutated_documents_agree_and_never_panic() {
    let mut rng = StdRng::seed_from_u64(42);
    let significant = b"{}[]\",:\\-+.0123456789eEtrufalsn \t\n\r\x00\xff\xc3\x80u";
    let mut accepted = 0;
    for _ in 0..20_000 {
        let doc = random_value(&mut rng, 4);
        let mut bytes = serde_json::to_vec(&doc).unwrap();
        for _ in 0..rng.gen_range(1..4) {
            let len = bytes.len();
            let at = rng.gen_range(0..=len);
            match rng.gen_range(0..5) {
                0 if at < len => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, significant[rng.gen_range(0..significant.len())]),
                2 if at < len => bytes[at] = significant[rng.gen_range(0..significant.len())],
                3 => bytes.truncate(at),
                _ => {
                    let end = rng.gen_range(at..=len);
                    let piece = bytes[at..end].to_vec();
                    bytes.splice(at..at, piece);
                }
            }
        }
        if agree(&bytes) {
            accepted += 1;
        }
    }
    // The mutations leave some documents valid and break most.
    assert!(accepted > 500 && accepted < 19_000, "accepted {accepted}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = StdRng::seed_from_u64(7);
    let alphabet = b"{}[]\",:0123456789.eE-+ntrufalse \\u";
    for i in 0..50_000 {
        let len = rng.gen_range(0..24);
        let bytes: Vec<u8> = if i % 2 == 0 {
            (0..len).map(|_| rng.gen()).collect()
        } else {
            (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        };
        agree(&bytes);
    }
}

#[test]
fn errors_carry_offset_and_expectation() {
    let err = Value::parse(r#"{"requests": [1, 2 3]}"#).unwrap_err();
    assert_eq!(err.offset(), 19);
    assert_eq!(
        err.to_string(),
        "invalid JSON at byte 19: expected ',' or ']', found '3'"
    );
    let err = Value::from_slice(b"[\"ok\", \"\xfe\"]").unwrap_err();
    assert_eq!(err.offset(), 8);
    assert_eq!(err.to_string(), "invalid JSON at byte 8: invalid UTF-8");
}
