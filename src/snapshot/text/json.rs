//! JSON leaves: every non-empty string (decoded) and every number (its literal as
//! serde_json prints it, which for integers is the source literal) with an RFC 6901
//! pointer. A string that itself holds a JSON object or array (SEER's payload) is
//! walked instead of kept whole, with locator `<outer pointer>!json<inner pointer>`,
//! so no quote can span two inner fields.

use std::fmt::Write as _;

use serde_json::Value;

use crate::domain::Fields;

/// Appends the leaves of `value` under `prefix` to `out`.
pub fn leaves(value: &Value, prefix: &str, out: &mut Fields) {
    let mut path = prefix.to_string();
    walk(value, &mut path, out);
}

fn walk(value: &Value, path: &mut String, out: &mut Fields) {
    match value {
        Value::String(s) => {
            if let Some(inner) = embedded_json(s) {
                let mut inner_path = format!("{path}!json");
                walk(&inner, &mut inner_path, out);
            } else if !s.is_empty() {
                out.push(path, "string", s);
            }
        }
        Value::Number(n) => out.push_with(path, "number", |text| {
            write!(text, "{n}").expect("writing to a String never fails")
        }),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                write!(path, "/{i}").expect("writing to a String never fails");
                walk(item, path, out);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                let len = path.len();
                path.push('/');
                push_escaped(path, k);
                walk(v, path, out);
                path.truncate(len);
            }
        }
        Value::Bool(_) | Value::Null => {}
    }
}

fn push_escaped(path: &mut String, key: &str) {
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// A string that is itself a JSON object or array, parsed; `None` for ordinary text.
pub fn embedded_json(s: &str) -> Option<Value> {
    let t = s.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) || s.len() < 2 {
        return None;
    }
    match serde_json::from_str::<Value>(s) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => Some(v),
        _ => None,
    }
}

/// Resolves a locator produced by [`leaves`] back to its value.
pub fn resolve<'a>(root: &'a Value, locator: &str) -> Option<std::borrow::Cow<'a, Value>> {
    let mut parts = locator.splitn(2, "!json");
    let outer = root.pointer(parts.next()?)?;
    match parts.next() {
        None => Some(std::borrow::Cow::Borrowed(outer)),
        Some(inner) => {
            let decoded = embedded_json(outer.as_str()?)?;
            let found = resolve(&decoded, inner)?.into_owned();
            Some(std::borrow::Cow::Owned(found))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(v: &Value) -> Vec<crate::domain::TextField> {
        let mut out = Fields::new();
        leaves(v, "", &mut out);
        out.iter()
            .map(|f| crate::domain::TextField {
                locator: f.locator.to_string(),
                kind: f.kind,
                text: f.text.to_string(),
            })
            .collect()
    }

    #[test]
    fn strings_numbers_and_escaped_keys() {
        let v: Value =
            serde_json::from_str(r#"{"a/b":{"x~y":["≥ 18 years", 42, 18.4, true, null, ""]}}"#)
                .unwrap();
        let got: Vec<(String, String)> = all(&v).into_iter().map(|f| (f.locator, f.text)).collect();
        assert_eq!(
            got,
            vec![
                ("/a~1b/x~0y/0".to_string(), "≥ 18 years".to_string()),
                ("/a~1b/x~0y/1".to_string(), "42".to_string()),
                ("/a~1b/x~0y/2".to_string(), "18.4".to_string()),
            ]
        );
        for (loc, text) in got {
            let found = resolve(&v, &loc).unwrap();
            let s = match found.as_ref() {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            assert_eq!(s, text);
        }
    }

    #[test]
    fn embedded_json_is_walked_not_kept_whole() {
        let v = Value::String(r#"{"data":{"k":[[1975,"17.98"]]}}"#.to_string());
        let f = all(&v);
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].locator, "!json/data/k/0/1");
        assert_eq!(f[1].text, "17.98");
        assert_eq!(
            resolve(&v, "!json/data/k/0/1").unwrap().as_str(),
            Some("17.98")
        );
        // Text that merely starts with a brace stays text.
        let t = Value::String("{not json} but prose".into());
        assert_eq!(all(&t)[0].text, "{not json} but prose");
    }
}
