"""Record the size of every table for one day (a stand-in for a real script)."""
