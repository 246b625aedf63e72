//! Integration and HIL tests live in tests/tests.
