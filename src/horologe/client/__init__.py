"""The companion client: SEP-1655 state, SEP-1809 context, SEP-2792 language and SEP-414 trace on every request."""
