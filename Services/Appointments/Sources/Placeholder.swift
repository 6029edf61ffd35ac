// Appointments vertical: in progress
