//! Memos kept between calls that can never give a stale answer: each holds the shared value (an
//! `Arc` of the state) it was worked out from, so that value cannot change while it is held (a
//! change copies it first, `Arc::make_mut`), and answers only while the state holds that same
//! value.

use crate::content::powers::Powers;
use crate::engine::state::State;
use std::cell::RefCell;
use std::sync::Arc;

/// The powers [`find_power`] last read, with the ids looked up in them.
type Found = (Arc<Powers>, Vec<(&'static str, Option<u16>)>);

thread_local! {
    /// Ids the rules look powers up by ([`find_power`]), per set of powers.
    static FOUND: RefCell<Option<Found>> = const { RefCell::new(None) };
}

/// `s.powers.find(id)` for an id the rules name (menus ask for the same few at every
/// decision), looked up once per set of powers.
pub fn find_power(s: &State, id: &'static str) -> Option<u16> {
    FOUND.with(|m| {
        let mut m = m.borrow_mut();
        if let Some((powers, known)) = m.as_mut()
            && Arc::ptr_eq(powers, &s.powers)
        {
            if let Some(&(_, found)) = known.iter().find(|(k, _)| *k == id) {
                return found;
            }
            let found = s.powers.find(id);
            known.push((id, found));
            return found;
        }
        let found = s.powers.find(id);
        *m = Some((s.powers.clone(), vec![(id, found)]));
        found
    })
}
