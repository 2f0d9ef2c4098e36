//! The Tinker's gadgets (L1328-1362): Effect hooks of its implement powers that no primitive
//! covers. Voko's Lariat ends the Marks its target has put on others (its fall on the first
//! move is a `moves` curse, curses.rs).

use crate::events::Event;
use crate::flow::Ctx;
use crate::state::UnitIdx;
use crate::statuses::StatusKind;
use fray_core::ruleset::RuleError;

/// Effect hooks this module plays.
pub const HOOKS: &[&str] = &["end-marks"];

/// Applies Effect hook `hook` of `power`, used by `user` on `target`.
pub fn effect_hook(cx: &mut Ctx, hook: &str, _user: UnitIdx, target: UnitIdx, power: u16) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    if hook == "end-marks" {
        // Voko's Lariat (L1330): every Mark the target has put on anyone ends.
        for u in cx.s.units_on_map().collect::<Vec<_>>() {
            let marks: Vec<_> = cx.s.unit(u)
                .statuses
                .iter()
                .filter(|st| st.kind == StatusKind::Marked && st.source == Some(target))
                .copied()
                .collect();
            for st in marks {
                cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: name.clone() });
            }
        }
    }
    Ok(())
}
