//! Wire protocol v1 (see docs/protocol.md).
