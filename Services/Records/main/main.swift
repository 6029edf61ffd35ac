// svc-records: in progress
