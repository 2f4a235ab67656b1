"""The Training lab's page pieces: settings (widgets -> config and the typed source), lab (the picture column: the
source box, the Train button, the untrained, live or trained map), live (the shared job: Train button, queue, live
progress, the session's hold on its jobs), picture (one map with its output), sections (the tabs under the picture),
specs (charts and decodes cached by value), warm (app.py's start-up hook: the pool and the default models)."""
