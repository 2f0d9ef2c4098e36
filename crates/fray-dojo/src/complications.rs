//! The complications a Director may add to a fight (D-CMP-*): guests on the heroes' side
//! (D-CMP-1), units gone over to the other side (D-CMP-3). Uneven fights (D-CMP-2) are evened out
//! in [`crate::enemies::even_out`]; higher stakes (D-CMP-5) are [`crate::stakes`]. Three-way
//! battles (D-CMP-4) are not played yet.

use crate::state::Kind;

/// Whether a unit of `kind` on side `side` is a guest (D-CMP-1): an enemy-made unit (a Warrior,
/// a Boss or Stooges) fighting on the heroes' side. It has one bar, takes one hero slot a round,
/// and brings the enemies one more slot; the heroes' seat plays it.
pub fn guest_kind(kind: Kind, side: usize) -> bool {
    side == 0 && kind != Kind::Hero
}
