// Anchors a precompiled-header provider target (cmake/precompiled.cmake).
