//! The testers hol offers: `quickcheck`'s rows, with the testers of the crates above it
//! (`narrowing`) in place of the rows that name them as not built. Every front end takes
//! its registry from here, so a tester that lands is offered everywhere at once.

use quickcheck::Registry;

/// Every tester hol has, in Isabelle's order.
pub fn standard() -> Registry {
    Registry::standard().with(narrowing::NarrowingTester)
}
