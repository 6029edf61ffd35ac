// svc-appointments: in progress
