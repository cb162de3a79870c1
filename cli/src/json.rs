//! Values between the library's JSON (`botzone::json`, which the judges and
//! the bots speak) and serde_json (which the tool's files and logs use).

/// The library's value of a serde_json value.
pub fn to_core(v: &serde_json::Value) -> botzone::json::Value {
    botzone::json::Value::parse(&v.to_string()).expect("serde_json writes JSON the library reads")
}

/// The serde_json value of a library value.
pub fn from_core(v: &botzone::json::Value) -> serde_json::Value {
    serde_json::from_str(&v.to_string()).expect("the library writes JSON serde_json reads")
}
