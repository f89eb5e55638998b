//! Appending a move or an event to a list by writing it where it goes.

/// Appends what `make` builds, written straight into the list's memory. A plain `push` of a
/// 96-byte move (or a 208-byte event) builds it on the stack and copies it over, and the
/// copy's wide loads wait on the narrow stores that just built it: a third of a robber
/// listing's time went there. Extending by the one value `make` yields writes it in place.
pub(crate) trait PushInPlace<T> {
    fn push_in_place(&mut self, make: impl FnOnce() -> T);
}

impl<T> PushInPlace<T> for Vec<T> {
    #[inline(always)]
    fn push_in_place(&mut self, make: impl FnOnce() -> T) {
        self.extend(std::iter::once_with(make));
    }
}

#[cfg(test)]
mod tests {
    use super::PushInPlace;

    #[test]
    fn appends_one_value_after_the_others() {
        let mut list = vec![1, 2];
        list.push_in_place(|| 3);
        assert_eq!(list, [1, 2, 3]);
    }
}
