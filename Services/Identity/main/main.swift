// svc-identity: in progress
