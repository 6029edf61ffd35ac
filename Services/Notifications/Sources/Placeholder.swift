// Notifications vertical: in progress
