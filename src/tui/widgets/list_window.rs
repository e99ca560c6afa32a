//! A window of rows over a list longer than the screen (the events items, the history and the
//! profiles lists).

/// The first row of a list window of `visible` rows that shows `selected`: `top` (where the
/// window was) unless that would hide the selection. Clicking a row on screen therefore never
/// moves the window, and the keyboard scrolls it only when the selection leaves it.
pub fn window_first(top: usize, selected: usize, visible: usize) -> usize {
    let visible = visible.max(1);
    if selected < top {
        selected
    } else if selected >= top + visible {
        selected + 1 - visible
    } else {
        top
    }
}

#[cfg(test)]
mod tests {
    use super::window_first;

    #[test]
    fn the_window_moves_only_when_the_selection_leaves_it() {
        // Inside the window: it stays where it was.
        assert_eq!(window_first(10, 12, 5), 10);
        assert_eq!(window_first(10, 14, 5), 10);
        // Below it: the selection becomes the last visible row.
        assert_eq!(window_first(10, 15, 5), 11);
        // Above it: the selection becomes the first row.
        assert_eq!(window_first(10, 3, 5), 3);
        // No room at all still shows the selection.
        assert_eq!(window_first(0, 7, 0), 7);
    }
}
