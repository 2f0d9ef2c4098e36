//! [`Who`]: a unit named in an event.

use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A unit named in an event: its index, for the code that applies the event, and its id, for
/// readers. It serializes and prints as the id alone, so journals read the same whatever the
/// units' order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Who<Ix = u8> {
    /// Index into the state's units.
    pub idx: Ix,
    /// Its id.
    pub id: Arc<str>,
}

impl<Ix> Who<Ix> {
    /// Unit `idx`, called `id`.
    pub fn new(idx: Ix, id: impl Into<Arc<str>>) -> Self {
        Who { idx, id: id.into() }
    }
}

impl<Ix> Serialize for Who<Ix> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id)
    }
}

impl<Ix> fmt::Display for Who<Ix> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}
