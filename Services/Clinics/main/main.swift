// svc-clinics: in progress
