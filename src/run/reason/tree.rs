//! Reading a bundle row structurally: JSON through serde_json with RFC 6901 pointers
//! that equal the text-field locators, and XML through its text fields (locator ->
//! text), navigated by 1-based element paths. A value is always returned with the
//! locator of the field it came from, so the claim built on it can be checked.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::lake::bundle::Row;

/// An owned pointer plus value, for walking.
pub struct Node<'a> {
    pub v: &'a Value,
    pub ptr: String,
}

impl<'a> Node<'a> {
    pub fn root(v: &'a Value) -> Node<'a> {
        Node {
            v,
            ptr: String::new(),
        }
    }

    pub fn get(&self, key: &str) -> Option<Node<'a>> {
        let v = self.v.get(key)?;
        let mut ptr = self.ptr.clone();
        ptr.push('/');
        for c in key.chars() {
            match c {
                '~' => ptr.push_str("~0"),
                '/' => ptr.push_str("~1"),
                c => ptr.push(c),
            }
        }
        Some(Node { v, ptr })
    }

    pub fn path(&self, keys: &[&str]) -> Option<Node<'a>> {
        let mut n = Node {
            v: self.v,
            ptr: self.ptr.clone(),
        };
        for k in keys {
            n = n.get(k)?;
        }
        Some(n)
    }

    pub fn items(&self) -> Vec<Node<'a>> {
        match self.v.as_array() {
            Some(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| Node {
                    v,
                    ptr: format!("{}/{i}", self.ptr),
                })
                .collect(),
            None => vec![],
        }
    }

    /// The leaf text as the text fields hold it (strings decoded, numbers printed).
    pub fn text(&self) -> Option<String> {
        match self.v {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    pub fn str_at(&self, keys: &[&str]) -> Option<(String, String)> {
        let n = self.path(keys)?;
        let t = n.text()?;
        Some((t, n.ptr))
    }
}

pub fn parse_json(row: &Row) -> Option<Value> {
    serde_json::from_slice(&row.raw).ok()
}

/// XML text fields of a row, by locator.
pub struct Xml<'a> {
    map: BTreeMap<&'a str, &'a str>,
}

impl<'a> Xml<'a> {
    pub fn of(row: &'a Row) -> Xml<'a> {
        Xml {
            map: row
                .fields
                .iter()
                .map(|(l, _, t)| (l.as_str(), t.as_str()))
                .collect(),
        }
    }

    /// The text at `prefix` + `rel` (rel like `/title[1]` or `/@value`).
    pub fn get(&self, prefix: &str, rel: &str) -> Option<(String, String)> {
        let loc = format!("{prefix}{rel}");
        self.map.get(loc.as_str()).map(|t| (t.to_string(), loc))
    }

    pub fn text(&self, prefix: &str, rel: &str) -> String {
        self.get(prefix, rel).map(|x| x.0).unwrap_or_default()
    }

    /// Locators of the children `name[1]`, `name[2]`... of `prefix` that hold any field.
    pub fn children(&self, prefix: &str, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for i in 1.. {
            let p = format!("{prefix}/{name}[{i}]");
            let probe = format!("{p}/");
            let has = self.map.contains_key(p.as_str())
                || self
                    .map
                    .range(probe.as_str()..)
                    .next()
                    .is_some_and(|(k, _)| k.starts_with(&probe));
            if !has {
                break;
            }
            out.push(p);
        }
        out
    }
}
