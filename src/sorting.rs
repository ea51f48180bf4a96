//! One sort for the whole crate. The standard library's sorts are generic over the element and
//! the comparison, so each `sort` / `sort_by_key` / `sort_unstable` call site compiles a whole
//! driftsort or ipnsort of its own (1-5 KB each): in the page's wasm, 30-odd call sites made
//! ~68 KB of sort code. Here the standard library's stable sort is compiled once, over positions,
//! and asks the call site's comparison through `dyn`; what each call site compiles is that
//! comparison and the moving of its elements into the sorted order.

use std::cmp::Ordering;

/// The positions `0..n` in the order `cmp` sorts them, equal ones in their own order (one
/// instantiation of `slice::sort_by`, which is stable, for the whole crate).
fn sorted_positions(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Put `v`'s elements in `order` (a permutation of its positions).
fn apply<T>(v: &mut Vec<T>, order: &[usize]) {
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.iter().filter_map(|&i| slots.get_mut(i).and_then(Option::take)));
}

/// `v.sort_by(cmp)`, stable.
pub fn sort_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let items: &[T] = v;
    let order = sorted_positions(items.len(), &mut |a, b| match (items.get(a), items.get(b)) {
        (Some(x), Some(y)) => cmp(x, y),
        _ => Ordering::Equal,
    });
    apply(v, &order);
}

/// `v.sort_by_key(key)`, stable.
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `v.sort()` (also for `sort_unstable`: a stable order is one of the orders it may give).
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does() {
        // a small deterministic generator: lengths 0..70, values with many repeats
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..70 {
            let v: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut ours = v.clone();
            sort_by_key(&mut ours, |p| p.0);
            let mut std = v.clone();
            std.sort_by_key(|p| p.0);
            // stable: equal keys keep their original order (the second field)
            assert_eq!(ours, std, "len {len}");
            let mut ours = v.clone();
            sort(&mut ours);
            let mut std = v;
            std.sort();
            assert_eq!(ours, std, "len {len}");
        }
    }

    #[test]
    fn reverse_keys_and_strings() {
        let mut v = vec!["b", "a", "c", "a"];
        sort(&mut v);
        assert_eq!(v, ["a", "a", "b", "c"]);
        let mut v = vec![(1, 'x'), (3, 'y'), (2, 'z'), (3, 'w')];
        sort_by_key(&mut v, |p| std::cmp::Reverse(p.0));
        assert_eq!(v, [(3, 'y'), (3, 'w'), (2, 'z'), (1, 'x')]);
    }
}
