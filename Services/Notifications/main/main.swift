// svc-notifications: in progress
