"""The app's screens: the modal ones (confirm, modify, help, scene state)."""
