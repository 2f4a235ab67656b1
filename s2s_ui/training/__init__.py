"""The Training lab's page pieces: settings (widgets -> config), live (the shared job: Train button, queue, live
progress, the session's hold on its jobs), sections (what a trained model shows), specs (charts and decodes cached
by value), warm (app.py's start-up hook: the pool and the default models)."""
