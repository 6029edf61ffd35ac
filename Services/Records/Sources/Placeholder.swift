// Records vertical: in progress
