//! An evenly spaced sample of a stream whose length is not known in advance: every
//! `step`-th item is kept, `step` a power of two doubled whenever more than twice the
//! limit are kept, so at most `2 · limit + 1` items are ever held. Used for the items a
//! report shows one by one (the HTML page's sentences), never for a score.

/// The sample, with each kept item's 1-based position in the stream.
#[derive(Debug, Clone)]
pub struct EvenSample<T> {
    limit: usize,
    step: u64,
    seen: u64,
    kept: Vec<(u64, T)>,
}

impl<T> EvenSample<T> {
    /// A sample of about `limit` items (0 keeps every item).
    pub fn new(limit: usize) -> Self {
        EvenSample {
            limit,
            step: 1,
            seen: 0,
            kept: Vec::new(),
        }
    }

    /// The next item of the stream, made by `make` only when it is kept. Returns
    /// whether it was.
    pub fn offer(&mut self, make: impl FnOnce() -> T) -> bool {
        self.seen += 1;
        if (self.seen - 1) % self.step != 0 {
            return false;
        }
        self.kept.push((self.seen, make()));
        if self.limit > 0 && self.kept.len() > 2 * self.limit {
            self.step *= 2;
            let step = self.step;
            self.kept.retain(|(i, _)| (i - 1) % step == 0);
        }
        (self.kept.last().map(|x| x.0)) == Some(self.seen)
    }

    /// The last item kept, if it is the last item offered.
    pub fn current_mut(&mut self) -> Option<&mut T> {
        match self.kept.last_mut() {
            Some((i, x)) if *i == self.seen => Some(x),
            _ => None,
        }
    }

    /// Items offered so far.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// The kept items with their positions, and the number offered.
    pub fn into_parts(self) -> (Vec<(u64, T)>, u64) {
        (self.kept, self.seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_everything_under_the_limit_and_evenly_spaced_items_beyond() {
        let mut s = EvenSample::new(10);
        for k in 0..15 {
            assert!(s.offer(|| k));
        }
        assert_eq!(s.seen(), 15);
        let mut s = EvenSample::new(4);
        let mut made = 0;
        for k in 1..=100u64 {
            s.offer(|| {
                made += 1;
                k
            });
            assert!(s.kept.len() <= 9);
        }
        let (kept, seen) = s.into_parts();
        assert_eq!(seen, 100);
        let idx: Vec<u64> = kept.iter().map(|x| x.0).collect();
        assert_eq!(idx, [1, 17, 33, 49, 65, 81, 97]);
        assert!(kept.iter().all(|(i, v)| i == v));
        assert!(made < 40, "items not kept are not made ({made})");
    }

    #[test]
    fn zero_keeps_all_and_current_is_the_last_offered() {
        let mut s = EvenSample::new(0);
        for k in 0..1000 {
            s.offer(|| k);
            *s.current_mut().unwrap() += 1;
        }
        let (kept, _) = s.into_parts();
        assert_eq!(kept.len(), 1000);
        assert_eq!(kept[999], (1000, 1000));
        let mut s = EvenSample::new(1);
        for k in 0..4 {
            s.offer(|| k);
        }
        assert!(
            s.current_mut().is_none(),
            "the 4th item is not kept at step 2"
        );
    }
}
