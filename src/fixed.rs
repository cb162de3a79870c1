//! Fixed-capacity storage for hot paths: no heap allocation, ever.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// A list of at most `N` copyable items stored inline.
///
/// Games use it for legal-action lists and backtrack stacks, so that search
/// never touches the allocator. Pushing past the capacity is a logic error
/// of the caller: [`FixedList::push`] panics, [`FixedList::try_push`] reports it.
#[derive(Clone, Copy)]
pub struct FixedList<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> FixedList<T, N> {
    /// The capacity.
    pub const CAPACITY: usize = N;

    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        FixedList {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// Appends `item`.
    ///
    /// # Panics
    /// When the list already holds `N` items.
    #[inline]
    pub fn push(&mut self, item: T) {
        self.items[self.len] = item;
        self.len += 1;
    }

    /// Appends `item`, or gives it back when the list is full.
    ///
    /// # Errors
    /// Returns `Err(item)` when the list already holds `N` items.
    #[inline]
    pub fn try_push(&mut self, item: T) -> Result<(), T> {
        if self.len == N {
            return Err(item);
        }
        self.push(item);
        Ok(())
    }

    /// Removes and returns the last item.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.items[self.len])
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the list to `len` items (no effect if it is shorter).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
        }
    }

    /// Removes item `i`, moving the last item into its place.
    ///
    /// # Panics
    /// When `i` is out of bounds.
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> T {
        assert!(i < self.len, "swap_remove index out of bounds");
        let item = self.items[i];
        self.len -= 1;
        self.items[i] = self.items[self.len];
        item
    }

    /// Whether the list holds `N` items.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == N
    }
}

impl<T: Copy + Default, const N: usize> Default for FixedList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for FixedList<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for FixedList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for FixedList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for FixedList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for FixedList<T, N> {}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a FixedList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::FixedList;

    #[test]
    fn push_pop_and_capacity() {
        let mut l: FixedList<u8, 3> = FixedList::new();
        assert!(l.is_empty());
        l.push(1);
        l.push(2);
        assert_eq!(l.try_push(3), Ok(()));
        assert_eq!(l.try_push(4), Err(4));
        assert_eq!(&*l, &[1, 2, 3]);
        assert_eq!(l.swap_remove(0), 1);
        assert_eq!(&*l, &[3, 2]);
        assert_eq!(l.pop(), Some(2));
        l.truncate(0);
        assert_eq!(l.pop(), None);
    }
}
