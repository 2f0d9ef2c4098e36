//! Power rolls: edges and banes, natural 19-20 (moved here from the library's unit tests; the
//! library has `test = false`).

use fray_drawsteel::rolls::{Mods, Rolled};

fn mods(e: usize, b: usize) -> Mods {
    Mods { edges: vec!["e"; e], banes: vec!["b"; b] }
}

#[test]
fn edges_and_banes_cancel_as_published() {
    assert_eq!(mods(1, 0).net(), (2, 0));
    assert_eq!(mods(3, 0).net(), (0, 1));
    assert_eq!(mods(0, 1).net(), (-2, 0));
    assert_eq!(mods(0, 2).net(), (0, -1));
    assert_eq!(mods(1, 1).net(), (0, 0));
    assert_eq!(mods(2, 2).net(), (0, 0));
    assert_eq!(mods(2, 1).net(), (2, 0));
    assert_eq!(mods(1, 2).net(), (-2, 0));
}

#[test]
fn natural_nineteen_is_tier_three_whatever_the_banes() {
    let r = Rolled { dice: [9, 10], natural: 19, bonus: -5 };
    assert_eq!(r.tier(&mods(0, 2)), 2);
    let r = Rolled { dice: [5, 6], natural: 11, bonus: 2 };
    assert_eq!(r.tier(&mods(0, 0)), 1);
    assert_eq!(r.tier(&mods(2, 0)), 2);
    assert_eq!(r.tier(&mods(0, 1)), 0);
}
