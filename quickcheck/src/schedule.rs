//! The order in which a run tests its type instances and sizes: as in Isabelle, instance `i`
//! (finite types of `i` elements) at size `k` comes in the order of `i + k`, then instance,
//! so small instances at small sizes come first and no instance waits for another to reach
//! the largest size. The driver walks this order for every tester.

/// The pairs (instance, size) of `instances` instances and sizes `1..=max_size` in the
/// order of `instance + size`, then instance: produced one at a time, since a large `size`
/// must cost time only as far as the search gets, not memory up front.
pub fn schedule(instances: usize, max_size: u64) -> impl Iterator<Item = (usize, u64)> {
    let last_diagonal = instances as u64 + max_size;
    (1..=last_diagonal).flat_map(move |d| {
        (0..instances).filter_map(move |i| {
            let k = d.checked_sub(i as u64)?;
            (1..=max_size).contains(&k).then_some((i, k))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::schedule;

    /// The lazy schedule visits exactly what sorting every pair by `instance + size` (a
    /// stable sort, so instance order breaks ties) visits.
    #[test]
    fn schedule_is_diagonal_order() {
        for instances in 0..5 {
            for max_size in 1..7u64 {
                let mut eager: Vec<(usize, u64)> =
                    (0..instances).flat_map(|i| (1..=max_size).map(move |k| (i, k))).collect();
                eager.sort_by_key(|(i, k)| *i as u64 + k);
                assert_eq!(schedule(instances, max_size).collect::<Vec<_>>(), eager);
            }
        }
    }

    /// The largest size costs nothing until it is reached.
    #[test]
    fn schedule_is_lazy() {
        let first: Vec<_> = schedule(64, u64::MAX / 2).take(3).collect();
        assert_eq!(first, vec![(0, 1), (0, 2), (1, 1)]);
    }
}
