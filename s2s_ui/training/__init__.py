"""The Training lab's page pieces: settings (widgets -> config), live (the shared job: Train button, queue, live
progress), sections (what a trained model shows), specs (charts and decodes cached by value)."""
