//! Interned label strings: one `u32` per distinct DEPREL (or tag), so that counting in the
//! hot loop indexes vectors instead of hashing strings twice.

use rustc_hash::FxHashMap;

/// A table of distinct strings, each with a dense id.
#[derive(Debug, Clone, Default)]
pub struct LabelTable {
    ids: FxHashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl LabelTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `s`, adding it if new. Allocates only the first time `s` is seen.
    #[inline]
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(s.into());
        self.ids.insert(s.into(), id);
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
}
