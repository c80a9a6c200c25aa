//! JSON leaves: every non-empty string (decoded) and every number (its literal as
//! serde_json prints it, which for integers is the source literal) with an RFC 6901
//! pointer. A string that itself holds a JSON object or array (SEER's payload) is
//! walked instead of kept whole, with locator `<outer pointer>!json<inner pointer>`,
//! so no quote can span two inner fields.

use std::fmt::Write as _;

use serde_json::Value;

use super::Wanted;
use crate::domain::Fields;

/// Appends the leaves of `value` under `prefix` to `out`.
pub fn leaves(value: &Value, prefix: &str, out: &mut Fields) {
    leaves_wanted(value, prefix, Wanted::All, out);
}

/// Appends the leaves of `value` under `prefix` that `wanted` takes to `out`: the same
/// as [`leaves`] and then dropping the others.
pub fn leaves_wanted(value: &Value, prefix: &str, wanted: Wanted<'_>, out: &mut Fields) {
    if wanted.any() {
        let mut path = prefix.to_string();
        walk(value, &mut path, wanted, out);
    }
}

fn walk(value: &Value, path: &mut String, wanted: Wanted<'_>, out: &mut Fields) {
    match value {
        Value::String(s) => string_leaf(s, path, wanted, out),
        Value::Number(n) => number_leaf(n, path, wanted, out),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                write!(path, "/{i}").expect("writing to a String never fails");
                walk(item, path, wanted, out);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                let len = path.len();
                path.push('/');
                push_escaped(path, k);
                walk(v, path, wanted, out);
                path.truncate(len);
            }
        }
        Value::Bool(_) | Value::Null => {}
    }
}

/// A string's leaf: none when empty, its own leaves when it holds JSON.
fn string_leaf(s: &str, path: &str, wanted: Wanted<'_>, out: &mut Fields) {
    if !wanted.any() {
        return;
    }
    if let Some(inner) = embedded_json(s) {
        let mut inner_path = format!("{path}!json");
        walk(&inner, &mut inner_path, wanted, out);
    } else if !s.is_empty() && wanted.takes(path) {
        out.push(path, "string", s);
    }
}

/// A number's leaf: its literal as serde_json prints it.
fn number_leaf(n: &serde_json::Number, path: &str, wanted: Wanted<'_>, out: &mut Fields) {
    if wanted.takes(path) {
        out.push_with(path, "number", |text| {
            write!(text, "{n}").expect("writing to a String never fails")
        });
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

/// What holds a value: one entry per level from the document's root down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Object,
    Array,
}

/// A document's leaves read straight from its bytes ([`leaves_streamed`]).
#[derive(Debug, Default)]
pub struct Streamed {
    /// The leaves, as [`leaves`] gives them for the parsed document.
    pub fields: Fields,
    /// The root object's keys, in order.
    pub top_keys: Vec<String>,
    /// The values of the root keys the caller asked to keep.
    pub kept: serde_json::Map<String, Value>,
}

/// The leaves of the JSON document `bytes` that `wanted` takes, exactly as
/// [`leaves_wanted`] gives them for the parsed document, read without building its tree: on a 2.5 MB companyfacts the tree
/// cost more to build and drop than the walk. The root keys named in `keep` are parsed
/// whole into [`Streamed::kept`] (and walked as [`leaves`] walks them); `on_string` sees
/// every other string value before it is kept or skipped (an empty string too), with
/// its containers and its pointer.
///
/// `Ok(None)` when an object repeats a key: the parsed tree keeps the last value at the
/// first key's place, which a single pass cannot give, so the caller walks the tree.
/// `Err` when `bytes` is not one JSON document (as `serde_json::from_slice` would say).
pub fn leaves_streamed(
    bytes: &[u8],
    keep: &[&str],
    wanted: Wanted<'_>,
    on_string: &mut dyn FnMut(&[Container], &str, &str),
) -> Result<Option<Streamed>, serde_json::Error> {
    use serde::de::DeserializeSeed as _;
    let mut state = State {
        path: String::new(),
        containers: Vec::new(),
        key_hashes: Vec::new(),
        repeated_key: false,
        keep,
        wanted,
        on_string,
        streamed: Streamed::default(),
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    Walker(&mut state).deserialize(&mut de)?;
    de.end()?;
    Ok((!state.repeated_key).then_some(state.streamed))
}

struct State<'a> {
    path: String,
    containers: Vec<Container>,
    /// per open object, the hashes of its keys so far
    key_hashes: Vec<Vec<u64>>,
    repeated_key: bool,
    keep: &'a [&'a str],
    wanted: Wanted<'a>,
    on_string: &'a mut dyn FnMut(&[Container], &str, &str),
    streamed: Streamed,
}

impl State<'_> {
    fn string(&mut self, s: &str) {
        (self.on_string)(&self.containers, &self.path, s);
        string_leaf(s, &self.path, self.wanted, &mut self.streamed.fields);
    }

    fn number(&mut self, n: serde_json::Number) {
        number_leaf(&n, &self.path, self.wanted, &mut self.streamed.fields);
    }
}

/// FNV-1a: a repeated key is told by equal hashes; two keys that merely share a hash
/// send the document to the tree walk, which gives the same leaves.
fn key_hash(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn repeats(hashes: &mut [u64]) -> bool {
    if hashes.len() <= 32 {
        hashes
            .iter()
            .enumerate()
            .any(|(i, h)| hashes[..i].contains(h))
    } else {
        hashes.sort_unstable();
        hashes.windows(2).any(|w| w[0] == w[1])
    }
}

struct Walker<'s, 'a>(&'s mut State<'a>);

impl<'de> serde::de::DeserializeSeed<'de> for Walker<'_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Walker<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, n: u64) -> Result<(), E> {
        self.0.number(n.into());
        Ok(())
    }
    fn visit_i64<E>(self, n: i64) -> Result<(), E> {
        self.0.number(n.into());
        Ok(())
    }
    fn visit_f64<E>(self, n: f64) -> Result<(), E> {
        // as the tree: a number that is not finite is null, and null is no leaf
        if let Some(n) = serde_json::Number::from_f64(n) {
            self.0.number(n);
        }
        Ok(())
    }
    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.0.string(s);
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let st = self.0;
        st.containers.push(Container::Array);
        for i in 0usize.. {
            let len = st.path.len();
            write!(st.path, "/{i}").expect("writing to a String never fails");
            let more = seq.next_element_seed(Walker(st))?;
            st.path.truncate(len);
            if more.is_none() {
                break;
            }
        }
        st.containers.pop();
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let st = self.0;
        let root = st.containers.is_empty();
        st.containers.push(Container::Object);
        let depth = st.containers.len();
        if st.key_hashes.len() < depth {
            st.key_hashes.resize_with(depth, Vec::new);
        }
        st.key_hashes[depth - 1].clear();
        loop {
            let len = st.path.len();
            st.path.push('/');
            let Some(key) = map.next_key_seed(Key {
                path: &mut st.path,
                root,
            })?
            else {
                st.path.truncate(len);
                break;
            };
            st.key_hashes[depth - 1].push(key.hash);
            match key.name {
                Some(name) if st.keep.contains(&name.as_str()) => {
                    let value: Value = map.next_value()?;
                    if st.wanted.any() {
                        walk(&value, &mut st.path, st.wanted, &mut st.streamed.fields);
                    }
                    st.streamed.top_keys.push(name.clone());
                    st.streamed.kept.insert(name, value);
                }
                name => {
                    if let Some(name) = name {
                        st.streamed.top_keys.push(name);
                    }
                    map.next_value_seed(Walker(st))?;
                }
            }
            st.path.truncate(len);
        }
        st.repeated_key |= repeats(&mut st.key_hashes[depth - 1]);
        st.containers.pop();
        Ok(())
    }
}

/// An object's key: appended to the pointer (escaped), hashed, and named when it is
/// one of the root's.
struct Key<'p> {
    path: &'p mut String,
    root: bool,
}

struct KeyRead {
    hash: u64,
    name: Option<String>,
}

impl<'de> serde::de::DeserializeSeed<'de> for Key<'_> {
    type Value = KeyRead;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<KeyRead, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Key<'_> {
    type Value = KeyRead;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object key")
    }
    fn visit_str<E>(self, key: &str) -> Result<KeyRead, E> {
        push_escaped(self.path, key);
        Ok(KeyRead {
            hash: key_hash(key),
            name: self.root.then(|| key.to_string()),
        })
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

    fn streamed(doc: &str) -> Option<Vec<crate::domain::TextField>> {
        let s =
            leaves_streamed(doc.as_bytes(), &["keep"], Wanted::All, &mut |_, _, _| {}).unwrap()?;
        Some(
            s.fields
                .iter()
                .map(|f| crate::domain::TextField {
                    locator: f.locator.to_string(),
                    kind: f.kind,
                    text: f.text.to_string(),
                })
                .collect(),
        )
    }

    #[test]
    fn streamed_leaves_are_the_trees_and_a_repeated_key_is_refused() {
        let many: String = (0..40).map(|i| format!(r#""k{i}":{i},"#)).collect();
        for doc in [
            r#"{"a/b":{"x~y":["≥ 18 years", 42, 18.4, -7, 1e21, true, null, ""]},"keep":{"n":[1,{"m":"v"}]}}"#.to_string(),
            r#"[[],{},[{"a":[[["deep"]]]}],"{\"data\":{\"k\":[[1975,\"17.98\"]]}}","{not json"]"#.to_string(),
            r#""only a string""#.to_string(),
            "12.50".to_string(),
            format!(r#"{{{many}"last":"x"}}"#),
        ] {
            let tree: Value = serde_json::from_str(&doc).unwrap();
            assert_eq!(streamed(&doc), Some(all(&tree)), "{doc}");
        }
        assert_eq!(streamed(r#"{"a":1,"b":{"c":2,"c":3}}"#), None);
        assert_eq!(streamed(&format!(r#"{{{many}"k7":"again"}}"#)), None);
        assert_eq!(streamed(r#"[{"c":2},{"c":3}]"#).map(|f| f.len()), Some(2));
        assert!(leaves_streamed(b"{\"a\":1} {}", &[], Wanted::All, &mut |_, _, _| {}).is_err());
        let kept = leaves_streamed(
            br#"{"keep":[1,"two"],"x":"y"}"#,
            &["keep"],
            Wanted::All,
            &mut |_, _, _| {},
        )
        .unwrap()
        .unwrap();
        assert_eq!(kept.top_keys, ["keep", "x"]);
        assert_eq!(kept.kept["keep"], serde_json::json!([1, "two"]));
    }

    #[test]
    fn wanted_leaves_are_all_leaves_filtered_by_locator() {
        let doc = r#"{"openfda":{"brand_name":["X"],"n":[3]},"openfdax":"no","set_id":"s",
            "set_id_extra":"no","keep":{"openfda":"no","v":"{\"openfda\":[1]}"},
            "openfda_j":"{\"a\":\"no\"}","boxed":"{\"b\":\"in\"}","tail":7}"#;
        let tree: Value = serde_json::from_str(doc).unwrap();
        let prefixes = ["/openfda/", "/set_id", "/keep/v", "/boxed"];
        for wanted in [Wanted::All, Wanted::Nothing, Wanted::Under(&prefixes)] {
            let mut all = Fields::new();
            leaves(&tree, "", &mut all);
            let want: Fields = all
                .iter()
                .filter(|f| wanted.takes(f.locator))
                .map(|f| crate::domain::TextField {
                    locator: f.locator.to_string(),
                    kind: f.kind,
                    text: f.text.to_string(),
                })
                .collect();
            let mut from_tree = Fields::new();
            leaves_wanted(&tree, "", wanted, &mut from_tree);
            assert_eq!(from_tree, want, "{wanted:?}");
            let streamed = leaves_streamed(doc.as_bytes(), &["keep"], wanted, &mut |_, _, _| {})
                .unwrap()
                .unwrap();
            assert_eq!(streamed.fields, want, "{wanted:?}");
            // what each leaves out is still read: the kept keys and the root's keys
            assert_eq!(streamed.kept["keep"]["openfda"], "no");
            assert_eq!(streamed.top_keys.len(), 8);
        }
        let mut under = Fields::new();
        leaves_wanted(&tree, "", Wanted::Under(&prefixes), &mut under);
        let locators: Vec<&str> = under.iter().map(|f| f.locator).collect();
        assert_eq!(
            locators,
            [
                "/openfda/brand_name/0",
                "/openfda/n/0",
                "/set_id",
                // a prefix without a trailing `/` takes any locator it starts
                "/set_id_extra",
                "/keep/v!json/openfda/0",
                "/boxed!json/b"
            ]
        );
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
