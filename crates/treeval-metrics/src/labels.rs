//! Interned label strings: one `u32` per distinct DEPREL (or tag), so that counting in the
//! hot loop indexes vectors instead of hashing strings twice.

use rustc_hash::FxHashMap;

/// Slots of the short-label cache (a power of two).
const CACHE: usize = 256;

/// A table of distinct strings, each with a dense id.
///
/// Strings of at most 8 bytes (nearly every dependency label and tag) also go through a
/// direct-mapped cache keyed by their bytes packed in a `u64`, which skips hashing and
/// comparing strings on the hot path.
#[derive(Debug, Clone)]
pub struct LabelTable {
    ids: FxHashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
    /// (packed bytes, length + 1 (0 = empty slot), id)
    cache: Box<[(u64, u32, u32); CACHE]>,
}

impl Default for LabelTable {
    fn default() -> Self {
        LabelTable {
            ids: FxHashMap::default(),
            names: Vec::new(),
            cache: Box::new([(0, 0, 0); CACHE]),
        }
    }
}

#[inline]
fn pack(s: &[u8]) -> Option<u64> {
    if s.len() > 8 {
        return None;
    }
    let mut b = [0u8; 8];
    b[..s.len()].copy_from_slice(s);
    Some(u64::from_le_bytes(b))
}

#[inline]
fn slot(key: u64, len: usize) -> usize {
    ((key ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % CACHE
}

impl LabelTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `s`, adding it if new. Allocates only the first time `s` is seen.
    #[inline]
    pub fn intern(&mut self, s: &str) -> u32 {
        let packed = pack(s.as_bytes());
        if let Some(key) = packed {
            let e = self.cache[slot(key, s.len())];
            if e.0 == key && e.1 == s.len() as u32 + 1 {
                return e.2;
            }
        }
        let id = match self.ids.get(s) {
            Some(&id) => id,
            None => {
                let id = self.names.len() as u32;
                self.names.push(s.into());
                self.ids.insert(s.into(), id);
                id
            }
        };
        if let Some(key) = packed {
            self.cache[slot(key, s.len())] = (key, s.len() as u32 + 1, id);
        }
        id
    }

    /// The id of `s`, if present.
    pub fn get(&self, s: &str) -> Option<u32> {
        self.ids.get(s).copied()
    }

    /// The string of `id`.
    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// Every label, in id order.
    pub fn to_names(&self) -> Vec<String> {
        self.names.iter().map(|n| n.to_string()).collect()
    }

    /// Number of labels.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intern_is_stable() {
        let mut t = LabelTable::new();
        let a = t.intern("nsubj");
        let b = t.intern("obj");
        assert_eq!(t.intern("nsubj"), a);
        assert_ne!(a, b);
        assert_eq!(t.name(b), "obj");
        assert_eq!(t.get("x"), None);
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn cache_never_confuses_labels() {
        // padding, prefixes, the empty string, long labels and many colliding slots
        let mut names: Vec<String> = vec![
            "".into(),
            "a".into(),
            "a\0".into(),
            "ab".into(),
            "abcdefgh".into(),
        ];
        names.extend(["abcdefghi", "compound:prt", "obl:tmod", "obl"].map(String::from));
        names.extend((0..2000).map(|i| format!("l{i}")));
        let mut t = LabelTable::new();
        let ids: Vec<u32> = names.iter().map(|n| t.intern(n)).collect();
        for _ in 0..3 {
            for (n, &id) in names.iter().zip(&ids) {
                assert_eq!(t.intern(n), id, "{n:?}");
                assert_eq!(t.name(id), n);
            }
        }
        assert_eq!(t.len(), names.len());
    }
}
